import { createHmac } from 'node:crypto';
import { BackendCallbacks } from './backend-callbacks';
import { standardWebhookProblem } from './standard-webhooks';

const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
const body = Buffer.from('{"id":"p1","status":"succeeded"}');
function signed(at: number, key = secret, id = 'msg_1', payload = body) {
  const mac = createHmac('sha256', Buffer.from(key.replace(/^whsec_/, ''), 'base64')).update(`${id}.${at}.`).update(payload).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(at), 'webhook-signature': `v0,xyz v1,${mac}` };
}

describe('Standard Webhooks signatures (Replicate callbacks)', () => {
  const now = 1_800_000_000;

  it('accepts a signature over id.timestamp.body with the whsec_ key, among several', () => {
    expect(standardWebhookProblem(signed(now), body, secret, now)).toBeUndefined();
    expect(standardWebhookProblem(signed(now - 299), body, secret, now)).toBeUndefined();
  });

  it('refuses another key, another body, a stale or future timestamp, missing headers', () => {
    expect(standardWebhookProblem(signed(now, `whsec_${Buffer.from('another key entirely!').toString('base64')}`), body, secret, now)).toBe(
      'webhook-signature does not match',
    );
    expect(standardWebhookProblem(signed(now), Buffer.from('{"id":"p1","status":"failed"}'), secret, now)).toBe('webhook-signature does not match');
    expect(standardWebhookProblem(signed(now - 301), body, secret, now)).toBe('webhook-timestamp is more than 300 s away from now');
    expect(standardWebhookProblem(signed(now + 301), body, secret, now)).toBe('webhook-timestamp is more than 300 s away from now');
    expect(standardWebhookProblem({ 'webhook-id': 'x' }, body, secret, now)).toBe(
      'the webhook-id, webhook-timestamp and webhook-signature headers are required',
    );
  });
});

describe('BackendCallbacks: signed callback URLs', () => {
  const callbacks = new BackendCallbacks('a-callback-signing-secret');
  const query = new URLSearchParams(callbacks.query('r8', 'sub-1', 'job_1', 60_000));

  it('signs backend, submission and job: each one changed is refused', () => {
    const [expires, signature] = [query.get('expires')!, query.get('signature')!];
    expect(query.get('job')).toBe('job_1');
    expect(callbacks.verify('r8', 'sub-1', 'job_1', expires, signature)).toBe('valid');
    expect(callbacks.verify('r8', 'sub-1', 'job_2', expires, signature)).toBe('invalid');
    expect(callbacks.verify('r8', 'sub-2', 'job_1', expires, signature)).toBe('invalid');
    expect(callbacks.verify('cog', 'sub-1', 'job_1', expires, signature)).toBe('invalid');
    expect(callbacks.verify('r8', 'sub-1', 'job_1', String(Number(expires) + 1), signature)).toBe('invalid');
    expect(new BackendCallbacks('another-signing-secret').verify('r8', 'sub-1', 'job_1', expires, signature)).toBe('invalid');
  });

  it('without a secret, URLs carry nothing and every callback is refused', () => {
    const off = new BackendCallbacks();
    expect(off.query('r8', 'sub-1', 'job_1', 1000)).toBe('');
    expect(off.verify('r8', 'sub-1', 'job_1', query.get('expires')!, query.get('signature')!)).toBe('invalid');
  });

  it('a callback wakes the collector waiting on its submission, and only it', async () => {
    const signal = new AbortController().signal;
    const started = Date.now();
    const waiting = callbacks.wait('sub-1', 10_000, signal);
    expect(callbacks.deliver('sub-2')).toBe(false);
    expect(callbacks.deliver('sub-1')).toBe(true);
    await waiting;
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
