import { createHmac, timingSafeEqual } from 'node:crypto';

export interface SignedFileParams {
  key: string;
  /** Unix time in seconds after which the URL is refused. */
  expires: number;
  downloadName?: string;
  contentType?: string;
  /** Present on a part upload URL (PUT), absent on a download URL (GET). */
  part?: SignedPart;
}

export interface SignedPart {
  uploadId: string;
  partNumber: number;
  /** Largest body the URL accepts. */
  maxBytes: number;
}

export type SignatureCheck = 'valid' | 'invalid' | 'expired';

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/**
 * HMAC-SHA256 signatures for the filesystem store's file URLs. The signed
 * string is the key and expiry, plus the download name and content type when
 * present, or, for a part upload, the upload, part number and size limit, so
 * none of them can be changed without invalidating the URL, and a download URL
 * never serves as an upload URL or the other way round. Components are
 * newline-separated; keys and names cannot contain newlines.
 */
export class UrlSigner {
  private readonly secret: Buffer;

  constructor(secret: string | Buffer) {
    this.secret = Buffer.isBuffer(secret) ? secret : Buffer.from(secret, 'utf8');
    if (this.secret.length < 16) throw new Error('storage signing secret must be at least 16 bytes');
  }

  sign(params: SignedFileParams): string {
    return createHmac('sha256', this.secret).update(canonical(params)).digest('hex');
  }

  verify(
    params: SignedFileParams,
    signature: string,
    nowSeconds = Math.floor(Date.now() / 1000),
  ): SignatureCheck {
    if (!Number.isSafeInteger(params.expires) || !HEX_SHA256.test(signature)) return 'invalid';
    const expected = Buffer.from(this.sign(params), 'hex');
    // Constant-time, so response timing reveals nothing about the right signature.
    if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return 'invalid';
    // Checked after the signature so an attacker learns nothing from forged expiries.
    return nowSeconds > params.expires ? 'expired' : 'valid';
  }
}

function canonical({ key, expires, downloadName, contentType, part }: SignedFileParams): string {
  let text = `${key}\n${expires}`;
  if (downloadName !== undefined) text += `\nname=${downloadName}`;
  if (contentType !== undefined) text += `\ntype=${contentType}`;
  if (part !== undefined)
    text += `\nput upload=${part.uploadId} part=${part.partNumber} max=${part.maxBytes}`;
  return text;
}
