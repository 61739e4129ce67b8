import type { MessageHandler } from '@nestjs/microservices';
import { HandlerTable } from './handler-table';

const topic = 'platform.probe.v1';
const topics = new Set([topic]);

function handler(extras: Record<string, unknown>, isEventHandler = true): MessageHandler {
  const fn = (async () => undefined) as unknown as MessageHandler;
  fn.isEventHandler = isEventHandler;
  fn.extras = extras;
  return fn;
}

describe('HandlerTable', () => {
  it('routes by consumer and type, typed handlers before the catch-all', () => {
    const typed = handler({ consumer: 'a', types: ['probe.recorded'] });
    const table = HandlerTable.build(
      [
        { pattern: topic, handler: handler({ consumer: 'a' }) },
        { pattern: topic, handler: typed },
        { pattern: topic, handler: handler({ consumer: 'b' }) },
      ],
      new Set(['a', 'b']),
      topics,
    );
    expect(table.consumers().sort()).toEqual(['a', 'b']);
    expect(table.route('a', topic, 'probe.recorded')?.types?.has('probe.recorded')).toBe(true);
    expect(table.route('a', topic, 'probe.other')?.types).toBeUndefined();
    expect(table.route('c', topic, 'probe.recorded')).toBeUndefined();
  });

  it.each([
    ['two catch-all handlers of one consumer', [{ consumer: 'a' }, { consumer: 'a' }], /2 handlers for every type/],
    ['two handlers of one consumer for one type', [{ consumer: 'a', types: ['x'] }, { consumer: 'a', types: ['x', 'y'] }], /two handlers for x/],
    ['a handler without consumer', [{}], /names no consumer/],
    ['a handler of an unregistered consumer', [{ consumer: 'ghost' }], /no MessagingModule.forService/],
  ])('fails at startup on %s', (_name, extras, message) => {
    expect(() =>
      HandlerTable.build(
        extras.map((e) => ({ pattern: topic, handler: handler(e) })),
        new Set(['a']),
        topics,
      ),
    ).toThrow(message);
  });

  it('refuses request/response handlers and unknown topics', () => {
    expect(() => HandlerTable.build([{ pattern: topic, handler: handler({ consumer: 'a' }, false) }], new Set(['a']), topics)).toThrow(/events only/);
    expect(() => HandlerTable.build([{ pattern: 'nope.v1', handler: handler({ consumer: 'a' }) }], new Set(['a']), topics)).toThrow(/unknown topic/);
  });
});
