import { FakeOpenai } from './fake-openai';

describe('FakeOpenai', () => {
  let fake: FakeOpenai;
  afterEach(() => fake?.close());

  it('records how long it held each request, and delayMs changed later applies to later requests', async () => {
    fake = await FakeOpenai.start({ delayMs: 150 });
    const generate = (prompt: string) =>
      fetch(`${fake.url}/images/generations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', prompt, size: '64x64', n: 1 }),
      });

    expect((await generate('first')).status).toBe(200);
    fake.options.delayMs = 400;
    expect((await generate('second')).status).toBe(200);

    const held = (prompt: string) => fake.requests.find((r) => r.body.prompt === prompt)?.heldMs;
    // The answer's last byte leaves after the delay and the drawing: at least the delay, not much more.
    expect(held('first')).toBeGreaterThanOrEqual(149);
    expect(held('first')).toBeLessThan(400);
    expect(held('second')).toBeGreaterThanOrEqual(399);
  });
});
