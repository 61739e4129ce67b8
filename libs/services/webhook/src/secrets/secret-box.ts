import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Nest token of the process's {@link SecretBox} (`@Inject(SECRET_BOX) box: SecretBox`). */
export const SECRET_BOX = Symbol('SECRET_BOX');

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encrypts endpoint secrets at rest with AES-256-GCM. A stolen database dump
 * (or a backup) then does not let anyone forge our signatures; only a process
 * holding WEBHOOK_SECRET_KEY can sign. Ciphertext format:
 * `v1.<base64url(iv ‖ ciphertext ‖ tag)>` — the version leaves room for a key
 * rotation scheme without guessing at old rows.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error(`SecretBox needs a 32-byte key, got ${key.length} bytes`);
    this.key = Buffer.from(key);
  }

  /** A fresh random IV per call: sealing the same secret twice gives different ciphertexts. */
  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
  }

  /** Throws when the ciphertext was altered or sealed with another key (GCM authenticates it). */
  open(ciphertext: string): string {
    const dot = ciphertext.indexOf('.');
    if (dot < 0 || ciphertext.slice(0, dot) !== VERSION)
      throw new Error('unsupported secret ciphertext format');
    const raw = Buffer.from(ciphertext.slice(dot + 1), 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('secret ciphertext is truncated');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  }
}
