import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { GetUrlPresigner } from './get-url-presigner';

const KEYS = [
  'assets/proj_1/asset_1/original-AbC_-x.png',
  'a b/c+d/e=f&g?h#i',
  "weird/!'()*~.-_/x",
  'unicode/été/東京/😀.webp',
  'percent/%2F/100%.txt',
  'x',
];

describe('GetUrlPresigner: the SDK’s presigned GET URLs, byte for byte', () => {
  const at = new Date('2026-03-04T05:06:07.890Z');
  const clients: Record<string, S3Client> = {
    'path style, custom endpoint with port': new S3Client({
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
      credentials: {
        accessKeyId: 'AKIDEXAMPLE',
        secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
      },
    }),
    'AWS virtual-hosted style, session token': new S3Client({
      region: 'eu-west-3',
      credentials: {
        accessKeyId: 'ASIAEXAMPLE',
        secretAccessKey: 'secret',
        sessionToken: 'FwoGZXIvYXdzE+token/with=chars',
      },
    }),
    'https endpoint, default port': new S3Client({
      region: 'auto',
      endpoint: 'https://files.example.com',
      forcePathStyle: true,
      credentials: { accessKeyId: 'K', secretAccessKey: 'S' },
    }),
  };

  afterAll(() => Object.values(clients).forEach((c) => c.destroy()));

  for (const [label, client] of Object.entries(clients)) {
    it(label, async () => {
      const fast = new GetUrlPresigner(client, 'my-bucket');
      for (const key of KEYS) {
        for (const extra of [
          {},
          { disposition: 'attachment; filename="asset_1.png"', contentType: 'image/png' },
        ]) {
          const sdk = await getSignedUrl(
            client,
            new GetObjectCommand({
              Bucket: 'my-bucket',
              Key: key,
              ResponseContentDisposition: (extra as { disposition?: string }).disposition,
              ResponseContentType: (extra as { contentType?: string }).contentType,
            }),
            { expiresIn: 3600, signingDate: at },
          );
          expect(await fast.presign(key, { expiresIn: 3600, signingDate: at, ...extra })).toBe(sdk);
        }
      }
    });
  }

  it('derives a new signing key when the day changes', async () => {
    const client = clients['path style, custom endpoint with port'];
    const fast = new GetUrlPresigner(client, 'b');
    const next = new Date('2026-03-05T00:00:01Z');
    await fast.presign('k', { expiresIn: 60, signingDate: at });
    const sdk = await getSignedUrl(client, new GetObjectCommand({ Bucket: 'b', Key: 'k' }), {
      expiresIn: 60,
      signingDate: next,
    });
    expect(await fast.presign('k', { expiresIn: 60, signingDate: next })).toBe(sdk);
  });

  it('is much cheaper than the SDK', async () => {
    const client = clients['path style, custom endpoint with port'];
    const fast = new GetUrlPresigner(client, 'b');
    await fast.presign('warm', { expiresIn: 60 });
    const time = async (fn: (i: number) => Promise<unknown>, n: number) => {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await fn(i);
      return (performance.now() - t0) / n;
    };
    const sdk = await time(
      (i) => getSignedUrl(client, new GetObjectCommand({ Bucket: 'b', Key: `k${i}` }), { expiresIn: 60 }),
      200,
    );
    const ours = await time((i) => fast.presign(`k${i}`, { expiresIn: 60 }), 200);
    expect(ours * 5).toBeLessThan(sdk);
  });
});
