import { Transform, type TransformCallback } from 'node:stream';
import { TextDecoder } from 'node:util';

/** How much of the start of a file is kept for sniffing its type (`file-type` reads a few KiB at most). */
export const HEAD_BYTES = 64 * 1024;

/**
 * Passes the bytes through unchanged while keeping the first `HEAD_BYTES` (for `file-type`)
  and checking that the whole content is valid UTF-8 (for text types). Memory stays
 * bounded: the content itself is never held.
 */
export class ContentInspector extends Transform {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private decoder: TextDecoder | null = new TextDecoder('utf-8', { fatal: true });
  utf8 = true;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.kept < HEAD_BYTES) {
      const part = chunk.subarray(0, HEAD_BYTES - this.kept);
      this.chunks.push(Buffer.from(part));
      this.kept += part.length;
    }
    this.checkUtf8(chunk, true);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.checkUtf8(new Uint8Array(0), false);
    callback();
  }

  head(): Buffer {
    return Buffer.concat(this.chunks);
  }

  private checkUtf8(bytes: Uint8Array, stream: boolean): void {
    if (!this.decoder) return;
    try {
      this.decoder.decode(bytes, { stream });
    } catch {
      this.utf8 = false;
      this.decoder = null;
    }
  }
}
