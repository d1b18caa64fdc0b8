import { Writable } from 'node:stream';

/** A log destination that keeps every line, to assert what was (not) logged. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.lines.push(chunk.toString('utf8'));
    done();
  }

  get text(): string {
    return this.lines.join('');
  }
}
