import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@genasset/config';
import { loadWebhookConfig } from '../webhook.config';
import { loadSecretKey, SECRET_KEY_FILE } from './secret-key';

describe('loadSecretKey', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'webhook-key-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('uses WEBHOOK_SECRET_KEY when set', () => {
    const key = randomBytes(32);
    const config = loadWebhookConfig({
      WEBHOOK_SECRET_KEY: key.toString('base64'),
      NODE_ENV: 'production',
      DATA_DIR: dir,
    });
    expect(loadSecretKey(config).equals(key)).toBe(true);
  });

  it('refuses a key that is not 32 base64 bytes, naming the variable', () => {
    expect(() => loadWebhookConfig({ WEBHOOK_SECRET_KEY: randomBytes(16).toString('base64') })).toThrow(
      /WEBHOOK_SECRET_KEY/,
    );
    expect(() => loadWebhookConfig({ WEBHOOK_SECRET_KEY: 'not a key!' })).toThrow(ConfigError);
  });

  it('fails in production without a key, naming the variable', () => {
    const config = loadWebhookConfig({ NODE_ENV: 'production', DATA_DIR: dir });
    expect(() => loadSecretKey(config)).toThrow(ConfigError);
    expect(() => loadSecretKey(config)).toThrow(/WEBHOOK_SECRET_KEY/);
  });

  it('elsewhere generates one key under DATA_DIR (0600) and keeps using it', () => {
    const config = loadWebhookConfig({ NODE_ENV: 'development', DATA_DIR: join(dir, 'nested') });
    const first = loadSecretKey(config);
    expect(first).toHaveLength(32);
    const path = join(dir, 'nested', SECRET_KEY_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(path, 'utf8').trim(), 'base64').equals(first)).toBe(true);
    expect(loadSecretKey(config).equals(first)).toBe(true);
  });

  it('refuses a corrupt key file instead of replacing it (stored secrets depend on it)', () => {
    writeFileSync(join(dir, SECRET_KEY_FILE), 'short');
    expect(() => loadSecretKey(loadWebhookConfig({ DATA_DIR: dir }))).toThrow(/32-byte/);
  });
});
