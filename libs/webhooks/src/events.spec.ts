import {
  isEventType,
  isKnownEventType,
  KNOWN_EVENT_TYPES,
  parseEvent,
  WebhookEvent,
  WebhookPayloadError,
} from './index';
import { unusualBody } from './test-support/loopback';

describe('parseEvent', () => {
  it('parses the envelope from raw bytes, unicode intact', () => {
    const event = parseEvent(Buffer.from(unusualBody('whevent_1')));
    expect(event).toMatchObject({
      id: 'whevent_1',
      type: 'generation.completed',
      data: { jobId: 'job_1', prompt: 'café ☕ naïve 𝄞 日本' },
    });
  });

  it('keeps unknown event types and extra fields: payloads are extensible', () => {
    const event = parseEvent(
      '{"id":"whevent_2","type":"asset.archived","data":{"x":1},"extra":true,"version":3}',
    );
    expect(event).toEqual({
      id: 'whevent_2',
      type: 'asset.archived',
      data: { x: 1 },
      extra: true,
      version: 3,
    });
    expect(isKnownEventType(event.type)).toBe(false);
  });

  it.each([
    ['not JSON', '{"id":'],
    ['not an object', '[1]'],
    ['no id', '{"type":"generation.created","data":{}}'],
    ['an empty type', '{"id":"whevent_3","type":"","data":{}}'],
    ['data not an object', '{"id":"whevent_3","type":"generation.created","data":[]}'],
    [
      'a non-integer version',
      '{"id":"whevent_3","type":"team.credit.threshold.crossed","data":{},"version":"1"}',
    ],
  ])('throws WebhookPayloadError (400, invalid_payload) for %s', (_name, body) => {
    expect(() => parseEvent(body)).toThrow(WebhookPayloadError);
    expect(() => parseEvent(body)).toThrow(
      expect.objectContaining({ reason: 'invalid_payload', statusCode: 400 }),
    );
  });
});

describe('isEventType', () => {
  it('narrows to the data shape of the spec catalog', () => {
    const event: WebhookEvent = parseEvent(
      '{"id":"whevent_4","type":"team.credit.threshold.crossed","version":1,"data":{"teamId":"team_1","thresholdUnit":"percent","thresholdValue":10,"remainingCreativeUnits":90,"totalPeriodCreativeUnits":1000}}',
    );
    expect(isEventType(event, 'generation.completed', 'generation.failed')).toBe(false);
    if (!isEventType(event, 'team.credit.threshold.crossed'))
      throw new Error('expected the team credit event');
    // Compile-time checks as much as runtime ones: these fields are typed after narrowing.
    const unit: 'percent' | 'absolute' = event.data.thresholdUnit;
    const version: number = event.version;
    expect([unit, version, event.data.remainingCreativeUnits]).toEqual(['percent', 1, 90]);
  });

  it('covers every project and team event type of the spec', () => {
    expect(KNOWN_EVENT_TYPES).toHaveLength(14);
    expect(KNOWN_EVENT_TYPES.filter((t) => t.startsWith('model.training.'))).toEqual([
      'model.training.started',
      'model.training.completed',
      'model.training.failed',
      'model.training.cancelled',
    ]);
  });
});
