import { describe, expect, it } from 'vitest';
import { canonicalType, contentDisposition, etagMatches, judgeType, safeFilename } from '../src/index.js';

describe('judging the type of an upload', () => {
  const images = ['image/jpeg', 'image/png'] as const;
  const texts = ['text/markdown', 'application/yaml', 'application/pdf'] as const;
  it('takes a signature format from its bytes; a declared type must agree', () => {
    expect(judgeType({ declared: 'image/jpeg', sniffed: 'image/jpeg', utf8: false }, images)).toBe('image/jpeg');
    expect(judgeType({ declared: 'image/jpg', sniffed: 'image/jpeg', utf8: false }, images)).toBe('image/jpeg');
    expect(judgeType({ declared: 'application/octet-stream', sniffed: 'image/png', utf8: false }, images)).toBe(
      'image/png',
    );
    expect(judgeType({ declared: 'image/jpeg', sniffed: 'application/pdf', utf8: false }, images)).toBeNull();
    expect(judgeType({ declared: 'image/jpeg', sniffed: undefined, utf8: true }, images)).toBeNull();
  });
  it('takes a text type as declared only when the content is UTF-8 and has no signature', () => {
    expect(judgeType({ declared: 'text/x-markdown; charset=utf-8', sniffed: undefined, utf8: true }, texts)).toBe(
      'text/markdown',
    );
    expect(judgeType({ declared: 'text/yaml', sniffed: undefined, utf8: true }, texts)).toBe('application/yaml');
    expect(judgeType({ declared: 'text/markdown', sniffed: undefined, utf8: false }, texts)).toBeNull();
    expect(judgeType({ declared: 'text/markdown', sniffed: 'application/pdf', utf8: false }, texts)).toBeNull();
    expect(judgeType({ declared: 'application/pdf', sniffed: undefined, utf8: true }, texts)).toBeNull();
    expect(judgeType({ declared: undefined, sniffed: undefined, utf8: true }, texts)).toBeNull();
  });
  it('names types canonically', () => {
    expect(canonicalType('Application/X-YAML')).toBe('application/yaml');
    expect(canonicalType('application/octet-stream')).toBeNull();
  });
});

describe('download headers', () => {
  it('matches If-None-Match lists, weak tags and *', () => {
    expect(etagMatches('"a", W/"b"', '"b"')).toBe(true);
    expect(etagMatches('*', '"b"')).toBe(true);
    expect(etagMatches('"c"', '"b"')).toBe(false);
    expect(etagMatches(undefined, '"b"')).toBe(false);
  });
  it('writes a safe Content-Disposition and file name', () => {
    expect(contentDisposition('Grundriss "EG" ä.pdf', 'attachment')).toBe(
      `attachment; filename="Grundriss _EG_ _.pdf"; filename*=UTF-8''Grundriss%20%22EG%22%20%C3%A4.pdf`,
    );
    expect(safeFilename('../../etc/passwd')).toBe('passwd');
    expect(safeFilename('C:\\x\\a\r\n.png')).toBe('a.png');
    expect(safeFilename('')).toBe('file');
  });
});
