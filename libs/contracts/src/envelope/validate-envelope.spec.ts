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
});
