import { errorMessage } from './error-message';
import { sleep } from './sleep';

describe('errorMessage', () => {
  it('gives the message of an Error, of an error-like object, or the text of anything else', () => {
    expect(errorMessage(new TypeError('bad input'))).toBe('bad input');
    expect(errorMessage({ message: 'from a plain object' })).toBe('from a plain object');
    expect(errorMessage('just text')).toBe('just text');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(undefined)).toBe('undefined');
  });
});

describe('sleep', () => {
  afterEach(() => jest.useRealTimers());

  it('resolves once the time has passed, not before', async () => {
    jest.useFakeTimers();
    let done = false;
    const sleeping = sleep(1_000).then(() => (done = true));
    await jest.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await sleeping;
    expect(done).toBe(true);
  });

  it('resolves at once when its signal aborts, or was aborted before', async () => {
    jest.useFakeTimers();
    const controller = new AbortController();
    let done = false;
    const sleeping = sleep(60_000, { signal: controller.signal }).then(() => (done = true));
    await jest.advanceTimersByTimeAsync(10);
    expect(done).toBe(false);
    controller.abort();
    await sleeping;
    expect(done).toBe(true);
    expect(jest.getTimerCount()).toBe(0);
    await expect(sleep(60_000, { signal: controller.signal })).resolves.toBeUndefined();
  });
});
