import { EndpointTargets } from './endpoint-targets';

describe('EndpointTargets', () => {
  const box = () => {
    const calls: string[] = [];
    return {
      calls,
      open(ciphertext: string) {
        calls.push(ciphertext);
        if (ciphertext === 'broken') throw new Error('GCM tag mismatch for key 0x1234');
        return `whsec_${ciphertext}`;
      },
    };
  };

  it('decrypts once per endpoint while URL and ciphertext are unchanged', async () => {
    const secrets = box();
    const targets = new EndpointTargets(secrets, { allowHttp: false });
    const a = await targets.get('we_1', 'https://a.example/h', 'c1');
    const b = await targets.get('we_1', 'https://a.example/h', 'c1');
    expect(a).toBe(b);
    expect(targets.peek('we_1', 'https://a.example/h', 'c1')).toBe(a);
    expect(targets.peek('we_1', 'https://a.example/h', 'c2')).toBeUndefined();
    expect(targets.peek('we_2', 'https://a.example/h', 'c1')).toBeUndefined();
    expect(a.secret).toBe('whsec_c1');
    expect(secrets.calls).toEqual(['c1']);
    // An updated URL is used at once.
    expect((await targets.get('we_1', 'https://b.example/h', 'c1')).url.host).toBe('b.example');
    expect(secrets.calls).toHaveLength(2);
  });

  it('expires entries after the TTL', async () => {
    const secrets = box();
    const targets = new EndpointTargets(secrets, { allowHttp: false }, 0);
    await targets.get('we_1', 'https://a.example/h', 'c1');
    expect(targets.peek('we_1', 'https://a.example/h', 'c1')).toBeUndefined();
    await targets.get('we_1', 'https://a.example/h', 'c1');
    expect(secrets.calls).toHaveLength(2);
  });

  it('fails with a message that reveals neither key nor ciphertext', async () => {
    const targets = new EndpointTargets(box(), { allowHttp: false });
    await expect(targets.get('we_1', 'https://a.example/h', 'broken')).rejects.toThrow(
      /^endpoint secret could not be decrypted$/,
    );
  });

  it('refuses http unless allowed, and unparsable URLs', async () => {
    await expect(
      new EndpointTargets(box(), { allowHttp: false }).get('we_1', 'http://a.example/h', 'c'),
    ).rejects.toThrow(/WEBHOOK_ALLOW_HTTP/);
    await expect(
      new EndpointTargets(box(), { allowHttp: true }).get('we_1', 'http://a.example/h', 'c'),
    ).resolves.toBeDefined();
    await expect(
      new EndpointTargets(box(), { allowHttp: true }).get('we_1', 'not a url', 'c'),
    ).rejects.toThrow(/not a valid absolute URL/);
  });
});
