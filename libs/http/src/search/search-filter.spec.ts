import { ApiError } from '../errors/api-error';
import { parseFilter } from './search-filter';

const SPEC = { scalar: ['type', 'name'], arrays: ['tags'], dates: ['createdAt'] };

function refusal(filter: string): string {
  try {
    parseFilter(filter, SPEC);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return JSON.stringify((error as ApiError).getResponse());
  }
  throw new Error(`accepted: ${filter}`);
}

describe('parseFilter', () => {
  it('reads =, !=, IN, date comparisons and quoted values joined with AND', () => {
    expect(parseFilter(`type = a AND name != "x y" AND tags IN [c, 'd e'] AND createdAt >= 0 and createdAt < 2026-01-01`, SPEC)).toEqual([
      { attribute: 'type', op: '=', value: 'a' },
      { attribute: 'name', op: '!=', value: 'x y' },
      { attribute: 'tags', op: 'IN', values: ['c', 'd e'] },
      { attribute: 'createdAt', op: '>=', value: new Date(0) },
      { attribute: 'createdAt', op: '<', value: new Date('2026-01-01') },
    ]);
  });

  it.each([
    ['type = a OR type = b', 'OR is not supported'],
    ['NOT type = a', 'NOT is not supported'],
    ['(type = a)', 'parentheses'],
    ['size = 3', 'not a filterable attribute'],
    ['type > a', 'only supported on createdAt'],
    ['createdAt = 3', 'supports comparisons'],
    ['tags IN c', 'followed by a list'],
    ['tags IN [a b]', 'separated by commas'],
    ['type = a AND', 'ends with AND'],
    ['type = a type = b', 'joined with AND'],
    ['type = "unterminated', 'cannot be read'],
  ])('refuses %j naming filter (%s)', (filter, message) => {
    const body = refusal(filter);
    expect(body).toContain('filter');
    expect(body).toContain(message);
  });
});
