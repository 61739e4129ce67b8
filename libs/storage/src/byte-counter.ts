import { Transform, type TransformCallback } from 'node:stream';

/** Pass-through that counts bytes, so stores report sizes of streams of unknown length. */
export class ByteCounter extends Transform {
  bytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    callback(null, chunk);
  }
}
