import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@genasset/config';
import type { WebhookConfig } from '../webhook.config';

export const SECRET_KEY_FILE = 'webhook-secret.key';

/**
 * The key sealing endpoint secrets: WEBHOOK_SECRET_KEY when set (validated by
 * the config schema). Unset in production is a start failure — a generated key
 * would silently differ between replicas and make every stored secret
 * unreadable on the others. Elsewhere (embedded mode, development, tests) one
 * key is generated once and kept beside the embedded database in DATA_DIR.
 */
export function loadSecretKey(
  config: Pick<WebhookConfig, 'WEBHOOK_SECRET_KEY' | 'NODE_ENV' | 'DATA_DIR'>,
): Buffer {
  if (config.WEBHOOK_SECRET_KEY) return Buffer.from(config.WEBHOOK_SECRET_KEY, 'base64');
  if (config.NODE_ENV === 'production') {
    throw new ConfigError([
      {
        variable: 'WEBHOOK_SECRET_KEY',
        message:
          'required in production: 32 random bytes, base64-encoded (e.g. `openssl rand -base64 32`), the same on every replica',
      },
    ]);
  }
  return readOrCreateKeyFile(join(config.DATA_DIR, SECRET_KEY_FILE));
}

/**
 * Creates the key file atomically: written under a temporary name with mode
 * 0600, then hard-linked to its final name, which fails if another process got
 * there first — so two processes starting together on one DATA_DIR agree on
 * one key and nobody ever reads a half-written file.
 */
function readOrCreateKeyFile(path: string): Buffer {
  const existing = readKeyFile(path);
  if (existing) return existing;
  mkdirSync(join(path, '..'), { recursive: true });
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(temporary, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(temporary, 0o600); // the umask may have widened nothing, but never trust it to
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temporary);
  }
  const key = readKeyFile(path);
  if (!key)
    throw new Error(
      `${path} does not hold a 32-byte base64 key; delete it only if no endpoint was created with it`,
    );
  return key;
}

function readKeyFile(path: string): Buffer | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const key = Buffer.from(text, 'base64');
  if (key.length !== 32) {
    throw new Error(
      `${path} does not hold a 32-byte base64 key; delete it only if no endpoint was created with it`,
    );
  }
  return key;
}
