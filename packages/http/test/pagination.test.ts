import { describe, expect, it } from 'vitest';
import { CursorCodec, listBody } from '../src/pagination.js';

const codec = new CursorCodec('secret');
const position = { createdAt: new Date('2026-11-22T10:00:00.123Z'), id: 'prop_abc' };

describe('cursor codec', () => {
  it('round-trips a position within its scope', () => {
    expect(codec.decode(codec.encode(position, 'list:a'), 'list:a')).toEqual(position);
  });

  it('refuses a cursor of another scope, another secret or with a changed payload', () => {
    const cursor = codec.encode(position, 'list:a');
    expect(() => codec.decode(cursor, 'list:b')).toThrow(/cursor/);
    expect(() => new CursorCodec('other').decode(cursor, 'list:a')).toThrow(/cursor/);
    const [, signature] = cursor.split('.');
    const payload = Buffer.from(JSON.stringify(['2026-11-22T10:00:00.123Z', 'prop_abd'])).toString('base64url');
    expect(() => codec.decode(`${payload}.${signature}`, 'list:a')).toThrow(/cursor/);
    expect(() => codec.decode('x.y.z', 'list:a')).toThrow(/cursor/);
  });
});

describe('listBody', () => {
  const rows = Array.from({ length: 4 }, (_, i) => ({ id: `r${i}`, created_at: new Date(1000 - i) }));
  it('uses the extra row only to tell that more exist', () => {
    const body = listBody(
      rows,
      3,
      (r) => r.id,
      (last) => last.id,
    );
    expect(body).toEqual({ data: ['r0', 'r1', 'r2'], page: { next_cursor: 'r2', has_more: true } });
    expect(
      listBody(
        rows.slice(0, 3),
        3,
        (r) => r.id,
        (last) => last.id,
      ),
    ).toEqual({ data: ['r0', 'r1', 'r2'], page: { next_cursor: null, has_more: false } });
  });
});
