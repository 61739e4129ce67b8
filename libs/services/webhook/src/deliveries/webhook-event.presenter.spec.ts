import type { WebhookDelivery } from '../generated/prisma/client';
import { presentDelivery } from './webhook-event.presenter';

const CREATED = new Date('2026-11-21T13:00:00.000Z');
const SENT = new Date('2026-11-21T13:02:00.250Z');

function row(overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id: 'whevent_1',
    endpointId: 'we_1',
    sourceEventId: 'evt_1',
    type: 'generation.completed',
    payload: { id: 'whevent_1', type: 'generation.completed', data: { jobId: 'job_1' } },
    status: 'created',
    attemptCount: 0,
    nextAttemptAt: CREATED,
    leaseUntil: null,
    createdAt: CREATED,
    sentAt: null,
    updatedAt: CREATED,
    traceContext: null,
    attempts: [],
    resendOf: null,
    ...overrides,
  };
}

describe('presentDelivery', () => {
  it('shows sentAt before the first attempt: the time the event was recorded', () => {
    const record = presentDelivery(row());
    expect(record.sentAt).toBe('2026-11-21T13:00:00.000Z');
    expect(Object.keys(record)).toEqual([
      'id',
      'endpointId',
      'type',
      'status',
      'payload',
      'attempts',
      'createdAt',
      'sentAt',
      'updatedAt',
    ]);
  });

  it('shows the last attempt as sentAt once one was made', () => {
    const record = presentDelivery(
      row({
        status: 'retrying',
        attemptCount: 1,
        sentAt: SENT,
        updatedAt: SENT,
        // As the recorder stores them; durationMs and error are not shown.
        attempts: [
          { responseStatusCode: 500, sentAt: SENT.toISOString(), durationMs: 31, error: 'HTTP 500' },
        ],
      }),
    );
    expect(record).toMatchObject({ sentAt: '2026-11-21T13:02:00.250Z' });
    expect(record.attempts).toEqual([{ responseStatusCode: 500, sentAt: '2026-11-21T13:02:00.250Z' }]);
  });

  it('names the first delivery of the event on a resend (resendOf, last), and only there', () => {
    const resend = presentDelivery(row({ id: 'whevent_2', resendOf: 'whevent_1' }));
    expect(resend).toMatchObject({ id: 'whevent_2', resendOf: 'whevent_1', payload: { id: 'whevent_1' } });
    expect(Object.keys(resend).at(-1)).toBe('resendOf');
    expect(presentDelivery(row())).not.toHaveProperty('resendOf');
  });
});
