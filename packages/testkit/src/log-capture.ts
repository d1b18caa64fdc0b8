import { Writable } from 'node:stream';
import { appendRunLog } from './run-log.js';

/** A log destination that keeps every line, to assert what was (not) logged. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    const line = chunk.toString('utf8');
    this.lines.push(line);
    appendRunLog(line);
    done();
  }

  get text(): string {
    return this.lines.join('');
  }
}
