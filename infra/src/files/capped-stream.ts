import { Transform, type TransformCallback } from 'node:stream';
import { FileTooLargeError } from './port';

/** A pass-through that counts the bytes and fails with FileTooLargeError past `maxBytes`. */
export class CappedStream extends Transform {
  bytes = 0;
  constructor(private readonly maxBytes = Infinity) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return done(new FileTooLargeError(this.maxBytes));
    done(null, chunk);
  }
}

export const capped = (maxBytes?: number) => new CappedStream(maxBytes);
