import { eventBody } from '../event-catalog';
import { deliveryBody } from './delivery-body';

describe('deliveryBody', () => {
  it('serialises {id, type, data, version?} compactly with the spec fields first, the same every time', () => {
    const payload = {
      version: 1,
      data: { teamId: 'team_1', thresholdValue: 10 },
      type: 'team.credit.threshold.crossed',
      id: 'whevent_1',
    };
    const body = deliveryBody('whevent_1', payload);
    expect(body.ok && body.bytes.toString()).toBe(
      '{"id":"whevent_1","type":"team.credit.threshold.crossed","data":{"teamId":"team_1","thresholdValue":10},"version":1}',
    );
    const again = deliveryBody('whevent_1', JSON.parse(JSON.stringify(payload)));
    expect(body.ok && again.ok && body.bytes.equals(again.bytes)).toBe(true);
  });

  it('keeps non-ASCII text as UTF-8 bytes', () => {
    const body = deliveryBody('whevent_2', {
      id: 'whevent_2',
      type: 'generation.completed',
      data: { note: 'été ✓' },
    });
    expect(body.ok && body.bytes.toString('utf8')).toContain('été ✓');
  });

  it.each([
    ['not an object', 42, /not a JSON object/],
    ['text that is not JSON', 'x', /not JSON/],
    ['an array', [], /not a JSON object/],
    ['another delivery’s id', { id: 'whevent_other', type: 't', data: {} }, /does not match/],
    ['no type', { id: 'whevent_3', data: {} }, /no type/],
    ['no data', { id: 'whevent_3', type: 't' }, /data is not an object/],
  ])('refuses a payload with %s (a service-side error)', (_name, payload, reason) => {
    const body = deliveryBody('whevent_3', payload);
    expect(body.ok).toBe(false);
    expect(!body.ok && body.reason).toMatch(reason);
  });

  it("sends eventBody's JSON text byte for byte: what the intake stores is what receivers get", () => {
    const stored = JSON.stringify(
      eventBody('whevent_1', {
        sourceEventId: 'evt_1',
        ownerType: 'team',
        ownerId: 'team_1',
        type: 'team.credit.threshold.crossed',
        data: { teamId: 'team_1', thresholdUnit: 'percent', thresholdValue: 20, note: 'été ✓' },
        version: 1,
      }),
    );
    const sent = deliveryBody('whevent_1', stored);
    expect(sent.ok && sent.bytes.toString('utf8')).toBe(stored);
  });

  it('sends the stored text as it is when it starts with this delivery’s id and type', () => {
    const stored = '{"id":"whevent_4","type":"generation.completed","data":{"z":1,"a":"\\u00e9"}}';
    const sent = deliveryBody('whevent_4', stored);
    expect(sent.ok && sent.bytes.toString('utf8')).toBe(stored);
  });

  it('rewrites other stored text in the canonical order, and refuses what is not JSON or another delivery’s', () => {
    // jsonb's key order, as rows written before the column kept the intake's text.
    const legacy = '{"id": "whevent_5", "data": {"jobId": "job_1"}, "type": "generation.completed"}';
    const sent = deliveryBody('whevent_5', legacy);
    expect(sent.ok && sent.bytes.toString('utf8')).toBe(
      '{"id":"whevent_5","type":"generation.completed","data":{"jobId":"job_1"}}',
    );
    expect(deliveryBody('whevent_5', '{"id":"whevent_5","type":')).toEqual({
      ok: false,
      reason: 'payload is not JSON',
    });
    const other = deliveryBody('whevent_6', '{"id":"whevent_5","type":"generation.completed","data":{}}');
    expect(!other.ok && other.reason).toMatch(/does not match/);
    expect(deliveryBody('whevent_6', '"text"').ok).toBe(false);
  });

  it('matches the stored id exactly: not a longer id with the same start, and an id JSON escapes as JSON writes it', () => {
    const longer = deliveryBody('whevent_7', '{"id":"whevent_77","type":"generation.completed","data":{}}');
    expect(!longer.ok && longer.reason).toMatch(/does not match/);
    const odd = 'whevent_"8"';
    const stored = JSON.stringify({ id: odd, type: 'generation.completed', data: { b: 1, a: 2 } });
    const sent = deliveryBody(odd, stored);
    expect(sent.ok && sent.bytes.toString('utf8')).toBe(stored);
  });
});
