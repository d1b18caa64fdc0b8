import { inflateSync } from 'node:zlib';

/**
 * A small reader of the PDFs pdfkit writes (a classic xref table, no object streams), for tests
 * that check the file's structure: the catalog, dictionaries, names, strings and streams. It
 * checks as it reads that every xref offset points at its object.
 */
export class PdfName {
  constructor(readonly name: string) {}
}

export class PdfRef {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
}

/** A string's bytes (a literal or a hex string). */
export class PdfString {
  constructor(readonly bytes: Buffer) {}

  /** As a text string: UTF-16BE after its byte order mark, else (near enough) PDFDocEncoding. */
  text(): string {
    if (this.bytes[0] === 0xfe && this.bytes[1] === 0xff)
      return Buffer.from(this.bytes.subarray(2)).swap16().toString('utf16le');
    return this.bytes.toString('latin1');
  }
}

export type PdfDict = Map<string, PdfValue>;
export type PdfValue = number | boolean | null | string | PdfName | PdfRef | PdfString | PdfValue[] | PdfDict;

export interface PdfStream {
  dict: PdfDict;
  /** The stream's data, inflated when it is FlateDecode. */
  data: Buffer;
  raw: Buffer;
}

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([...'()<>[]{}/%'].map((c) => c.charCodeAt(0)));

export class PdfFile {
  readonly version: string;
  readonly trailer: PdfDict;
  private readonly offsets = new Map<number, number>();

  constructor(readonly bytes: Buffer) {
    const header = /^%PDF-(\d\.\d)\r?\n/.exec(bytes.subarray(0, 16).toString('latin1'));
    if (!header) throw new Error('no PDF header');
    this.version = header[1];
    const tail = bytes.subarray(-64).toString('latin1');
    const startxref = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
    if (!startxref) throw new Error('no startxref at the end');
    let pos = Number(startxref[1]);
    const xref = /^xref\r?\n(\d+) (\d+)\r?\n/.exec(bytes.subarray(pos, pos + 64).toString('latin1'));
    if (!xref) throw new Error('startxref does not point at an xref table');
    pos += xref[0].length;
    const first = Number(xref[1]);
    for (let i = 0; i < Number(xref[2]); i++, pos += 20) {
      const entry = bytes.subarray(pos, pos + 20).toString('latin1');
      const match = /^(\d{10}) (\d{5}) ([nf])(?: \n|\r\n| \r)$/.exec(entry);
      if (!match) throw new Error(`bad xref entry ${JSON.stringify(entry)}`);
      if (match[3] === 'n') this.offsets.set(first + i, Number(match[1]));
    }
    const trailer = new Parser(bytes, pos);
    trailer.keyword('trailer');
    this.trailer = trailer.dict();
    for (const [num, offset] of this.offsets) {
      const head = bytes.subarray(offset, offset + 24).toString('latin1');
      if (!head.startsWith(`${num} 0 obj`))
        throw new Error(`xref offset of object ${num} points at ${JSON.stringify(head)}`);
    }
  }

  /** The object a reference names, or the value itself when it is not a reference. */
  resolve(value: PdfValue | undefined): PdfValue | undefined {
    if (!(value instanceof PdfRef)) return value;
    return this.object(value.num).value;
  }

  dict(value: PdfValue | undefined): PdfDict {
    const resolved = this.resolve(value);
    if (!(resolved instanceof Map)) throw new Error('not a dictionary');
    return resolved;
  }

  array(value: PdfValue | undefined): PdfValue[] {
    const resolved = this.resolve(value);
    if (!Array.isArray(resolved)) throw new Error('not an array');
    return resolved;
  }

  /** A dictionary's entry, references followed. */
  get(dict: PdfDict, key: string): PdfValue | undefined {
    return this.resolve(dict.get(key));
  }

  name(value: PdfValue | undefined): string | undefined {
    const resolved = this.resolve(value);
    return resolved instanceof PdfName ? resolved.name : undefined;
  }

  text(value: PdfValue | undefined): string | undefined {
    const resolved = this.resolve(value);
    return resolved instanceof PdfString ? resolved.text() : undefined;
  }

  catalog(): PdfDict {
    return this.dict(this.trailer.get('Root'));
  }

  info(): PdfDict {
    return this.dict(this.trailer.get('Info'));
  }

  stream(value: PdfValue | undefined): PdfStream {
    if (!(value instanceof PdfRef)) throw new Error('a stream is always indirect');
    const { stream } = this.object(value.num);
    if (!stream) throw new Error(`object ${value.num} is not a stream`);
    return stream;
  }

  /** Every object number in the xref table. */
  objectNumbers(): number[] {
    return [...this.offsets.keys()];
  }

  object(num: number): { value: PdfValue; stream?: PdfStream } {
    const offset = this.offsets.get(num);
    if (offset === undefined) throw new Error(`no object ${num}`);
    const parser = new Parser(this.bytes, offset);
    parser.keyword(String(num));
    parser.keyword('0');
    parser.keyword('obj');
    const value = parser.value();
    if (!parser.peekKeyword('stream')) return { value };
    if (!(value instanceof Map)) throw new Error('a stream without a dictionary');
    const start = parser.streamStart();
    const length = this.resolve(value.get('Length'));
    if (typeof length !== 'number') throw new Error('a stream without a Length');
    const raw = this.bytes.subarray(start, start + length);
    const end = this.bytes.subarray(start + length, start + length + 12).toString('latin1');
    if (!/^\r?\nendstream/.test(end)) throw new Error(`object ${num}: Length ${length} does not end at endstream`);
    const filter = this.name(value.get('Filter'));
    const data = filter === 'FlateDecode' ? inflateSync(raw) : Buffer.from(raw);
    if (filter !== undefined && filter !== 'FlateDecode') throw new Error(`filter ${filter} is not read here`);
    return { value, stream: { dict: value, data, raw } };
  }
}

class Parser {
  constructor(
    private readonly bytes: Buffer,
    private pos: number,
  ) {}

  private skip(): void {
    for (;;) {
      while (this.pos < this.bytes.length && WHITESPACE.has(this.bytes[this.pos])) this.pos++;
      if (this.bytes[this.pos] !== 0x25) return; // %: a comment to the end of the line
      while (this.pos < this.bytes.length && this.bytes[this.pos] !== 0x0a && this.bytes[this.pos] !== 0x0d) this.pos++;
    }
  }

  private regular(): string {
    this.skip();
    const start = this.pos;
    while (
      this.pos < this.bytes.length &&
      !WHITESPACE.has(this.bytes[this.pos]) &&
      !DELIMITERS.has(this.bytes[this.pos])
    )
      this.pos++;
    return this.bytes.toString('latin1', start, this.pos);
  }

  keyword(expected: string): void {
    const got = this.regular();
    if (got !== expected) throw new Error(`expected ${expected}, found ${JSON.stringify(got)} at ${this.pos}`);
  }

  peekKeyword(expected: string): boolean {
    const saved = this.pos;
    const got = this.regular();
    if (got === expected) return true;
    this.pos = saved;
    return false;
  }

  /** Where a stream's data starts: after `stream` and its end of line (CRLF or LF). */
  streamStart(): number {
    if (this.bytes[this.pos] === 0x0d && this.bytes[this.pos + 1] === 0x0a) return this.pos + 2;
    if (this.bytes[this.pos] === 0x0a) return this.pos + 1;
    throw new Error('stream keyword without an end of line');
  }

  dict(): PdfDict {
    this.skip();
    if (this.bytes.toString('latin1', this.pos, this.pos + 2) !== '<<') throw new Error('not a dictionary');
    const value = this.value();
    if (!(value instanceof Map)) throw new Error('not a dictionary');
    return value;
  }

  value(): PdfValue {
    this.skip();
    const c = this.bytes[this.pos];
    if (c === 0x3c && this.bytes[this.pos + 1] === 0x3c) {
      this.pos += 2;
      const dict: PdfDict = new Map();
      for (;;) {
        this.skip();
        if (this.bytes[this.pos] === 0x3e && this.bytes[this.pos + 1] === 0x3e) {
          this.pos += 2;
          return dict;
        }
        const key = this.value();
        if (!(key instanceof PdfName)) throw new Error(`a dictionary key that is not a name at ${this.pos}`);
        dict.set(key.name, this.value());
      }
    }
    if (c === 0x3c) {
      const end = this.bytes.indexOf(0x3e, this.pos);
      const hex = this.bytes.toString('latin1', this.pos + 1, end).replace(/\s/g, '');
      this.pos = end + 1;
      return new PdfString(Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex'));
    }
    if (c === 0x5b) {
      this.pos++;
      const array: PdfValue[] = [];
      for (;;) {
        this.skip();
        if (this.bytes[this.pos] === 0x5d) {
          this.pos++;
          return array;
        }
        array.push(this.value());
      }
    }
    if (c === 0x28) return this.literal();
    if (c === 0x2f) {
      this.pos++;
      const raw = this.regular();
      return new PdfName(raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))));
    }
    const word = this.regular();
    if (word === 'true' || word === 'false') return word === 'true';
    if (word === 'null') return null;
    if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) throw new Error(`unexpected ${JSON.stringify(word)} at ${this.pos}`);
    const saved = this.pos;
    if (/^\d+$/.test(word)) {
      const gen = this.regular();
      if (/^\d+$/.test(gen) && this.regular() === 'R') return new PdfRef(Number(word), Number(gen));
      this.pos = saved;
    }
    return Number(word);
  }

  private literal(): PdfString {
    this.pos++; // (
    const out: number[] = [];
    let depth = 1;
    for (;;) {
      const c = this.bytes[this.pos++];
      if (c === undefined) throw new Error('an unterminated string');
      if (c === 0x5c) {
        const next = this.bytes[this.pos++];
        const escapes: Record<number, number> = { 0x6e: 10, 0x72: 13, 0x74: 9, 0x62: 8, 0x66: 12 };
        if (next in escapes) out.push(escapes[next]);
        else if (next >= 0x30 && next <= 0x37) {
          let octal = next - 0x30;
          for (let i = 0; i < 2 && this.bytes[this.pos] >= 0x30 && this.bytes[this.pos] <= 0x37; i++)
            octal = octal * 8 + (this.bytes[this.pos++] - 0x30);
          out.push(octal & 0xff);
        } else if (next === 0x0d) {
          if (this.bytes[this.pos] === 0x0a) this.pos++;
        } else if (next !== 0x0a) out.push(next);
        continue;
      }
      if (c === 0x28) depth++;
      if (c === 0x29 && --depth === 0) return new PdfString(Buffer.from(out));
      out.push(c);
    }
  }
}
