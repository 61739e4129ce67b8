import { acceptedBody, refusedFields as refused } from '@genasset/http';
import { PutCreditAlertsDto } from './credit-alerts.dto';

// The body as the apps' validation pipe sees it: anything but a list of { unit, value } objects is a 400 naming the field.
describe('PUT credit-alerts body', () => {
  const parse = (body: unknown) => acceptedBody(PutCreditAlertsDto, body);
  const refusedFields = (body: unknown) => refused(PutCreditAlertsDto, body);

  it('accepts a list of thresholds, and an empty one', async () => {
    await expect(parse({ thresholds: [{ unit: 'percent', value: 10 }] })).resolves.toEqual({
      thresholds: [{ unit: 'percent', value: 10 }],
    });
    await expect(parse({ thresholds: [] })).resolves.toEqual({ thresholds: [] });
  });

  it.each([
    ['a nested list', [[{ unit: 'percent', value: 10 }]]],
    ['null', [null]],
    ['a number', [5]],
  ])('refuses %s as a threshold, naming thresholds', async (_name, item) => {
    const fields = await refusedFields({ thresholds: item });
    expect(fields.length).toBeGreaterThan(0);
    expect(fields.every((f) => f.startsWith('thresholds'))).toBe(true);
  });
});
