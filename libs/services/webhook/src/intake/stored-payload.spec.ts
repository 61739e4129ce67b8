import { deliveryBody } from '../dispatch/delivery-body';
import type { EventBody } from '../event-catalog';
import { storedPayload } from './stored-payload';

describe('storedPayload', () => {
  // Fields deliberately out of order, nested keys in no sorted order, non-ASCII text.
  const body = {
    version: 1,
    data: { teamId: 'team_1', thresholdUnit: 'percent', thresholdValue: 20, note: 'été ✓' },
    type: 'team.credit.threshold.crossed',
    id: 'whevent_1',
  } as EventBody;

  it('is the JSON text of the body the workers send: {id, type, data, ...rest}', () => {
    const stored = storedPayload(body);
    expect(stored).toBe(
      '{"id":"whevent_1","type":"team.credit.threshold.crossed","data":{"teamId":"team_1","thresholdUnit":"percent","thresholdValue":20,"note":"été ✓"},"version":1}',
    );
    // What a worker sends from the stored text, byte for byte.
    const sent = deliveryBody('whevent_1', JSON.parse(stored));
    expect(sent.ok && sent.bytes.toString('utf8')).toBe(stored);
  });

  it('reads back as the same text: the delivery log shows the bytes receivers got', () => {
    const stored = storedPayload(body);
    expect(JSON.stringify(JSON.parse(stored))).toBe(stored);
  });
});
