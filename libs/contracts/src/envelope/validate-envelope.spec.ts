import { buildEventRegistry, createEnvelope, ProbeRecorded, TOPICS, validateEnvelope } from '../index';

const registry = buildEventRegistry();
const encode = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('validateEnvelope', () => {
  const good = createEnvelope(
    ProbeRecorded,
    { subject: 'acct-1', sequence: 3, amount: 5 },
    { producer: 'test' },
  );

  it('accepts a well-formed event and keys it by its aggregate', () => {
    expect(good.key).toBe('acct-1');
    expect(good.id).toMatch(/^evt_[0-9A-Z]{26}$/);
    const check = validateEnvelope(encode(good), TOPICS.platformProbe, registry);
    expect(check.ok).toBe(true);
    expect(check.ok && check.definition?.type).toBe('probe.recorded');
  });

  it('rejects non-JSON with a reason', () => {
    const check = validateEnvelope(Buffer.from('{oops'), TOPICS.platformProbe, registry);
    expect(check).toEqual({ ok: false, reason: expect.stringContaining('not JSON') });
  });

  it('names the invalid payload field', () => {
    const bad = { ...good, data: { subject: 'acct-1', sequence: -1, amount: 5 } };
    const check = validateEnvelope(encode(bad), TOPICS.platformProbe, registry);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.reason).toContain('data.sequence');
  });

  it('rejects an envelope without an id', () => {
    const { id: _id, ...rest } = good;
    const check = validateEnvelope(encode(rest), TOPICS.platformProbe, registry);
    expect(!check.ok && check.reason).toContain('id');
  });

  it('accepts unknown event types (extensible) without a definition', () => {
    const check = validateEnvelope(encode({ ...good, type: 'probe.future' }), TOPICS.platformProbe, registry);
    expect(check.ok && check.definition).toBeUndefined();
  });

  it('rejects a known type on the wrong topic', () => {
    const check = validateEnvelope(encode(good), TOPICS.jobLifecycle, registry);
    expect(!check.ok && check.reason).toContain('belongs on platform.probe.v1');
  });

  // Envelopes as producers write them take a hand-written fast path; every other
  // form goes through the decorated class. Both must decide alike.
  describe('the fast path and the class decide alike', () => {
    const check = (envelope: object) => validateEnvelope(encode(envelope), TOPICS.platformProbe, registry);

    it('accepts other valid ISO 8601 forms and a trace through the class', () => {
      expect(check({ ...good, occurredAt: '2026-11-21T10:00:00Z' }).ok).toBe(true);
      expect(check({ ...good, occurredAt: '2028-02-29T23:59:59.999Z' }).ok).toBe(true);
      expect(check({ ...good, occurredAt: '2026-11-21T10:00:00.123+01:00' }).ok).toBe(true);
      expect(check({ ...good, trace: { traceparent: '00-abc-def-01', requestId: 'req_1' } }).ok).toBe(true);
      expect(check({ ...good, trace: null }).ok).toBe(true);
    });

    it.each([
      ['an impossible date', { occurredAt: '2026-02-30T10:00:00.000Z' }, 'occurredAt'],
      ['a 29 February outside a leap year', { occurredAt: '2100-02-29T10:00:00.000Z' }, 'occurredAt'],
      ['an impossible hour', { occurredAt: '2026-11-21T24:00:00.000Z' }, 'occurredAt'],
      ['month 13', { occurredAt: '2026-13-01T10:00:00.000Z' }, 'occurredAt'],
      ['a date that is not a string', { occurredAt: 12 }, 'occurredAt'],
      ['a lower-case id', { id: 'evt_01jcz5q3j8w6v8xq1t9g8q2n7r' }, 'id must be evt_'],
      ['a type over 200 characters', { type: 'x'.repeat(201) }, 'type'],
      ['a producer over 100 characters', { producer: 'p'.repeat(101) }, 'producer'],
      ['a numeric key', { key: 7 }, 'key'],
      ['array data', { data: [1] }, 'data'],
      ['null data', { data: null }, 'data'],
      ['a trace field that is not a string', { trace: { traceparent: 5 } }, 'trace.traceparent'],
    ])('rejects %s, naming the field', (_what, change, field) => {
      const result = check({ ...good, ...change });
      expect(result.ok).toBe(false);
      expect(!result.ok && result.reason).toContain(field);
    });

    it('still validates the payload of a canonical envelope', () => {
      const result = check({ ...good, data: { subject: 'acct-1', sequence: 1, amount: 0 } });
      expect(!result.ok && result.reason).toContain('data.amount');
    });
  });
});
