import { describe, expect, it } from 'vitest';
import { portalFileName } from '../src/portals/package-name.js';

const AT = new Date('2025-06-15T08:30:07.456Z');

describe('portalFileName', () => {
  it('is the provider number, the UTC second and the sequence number, .zip', () => {
    expect(portalFileName('ANB-42', AT, 7)).toBe('ANB-42_20250615083007_7.zip');
  });

  it('writes the time in UTC whatever offset the date was made with', () => {
    expect(portalFileName('A', new Date('2025-06-15T10:30:07+02:00'), 0)).toBe('A_20250615083007_0.zip');
    expect(portalFileName('A', new Date('2025-12-31T23:59:59-01:00'), 0)).toBe('A_20260101005959_0.zip');
  });

  it('keeps only [A-Za-z0-9_-] of the provider number, at most 64 of them', () => {
    expect(portalFileName('Müller/Immo GmbH 12', AT, 1)).toBe('MllerImmoGmbH12_20250615083007_1.zip');
    expect(portalFileName('../../etc/passwd', AT, 1)).toBe('etcpasswd_20250615083007_1.zip');
    const name = portalFileName('x'.repeat(100), AT, 1);
    expect(name).toBe(`${'x'.repeat(64)}_20250615083007_1.zip`);
    for (const n of [name, portalFileName('a b\u0000c\nd', AT, 2)]) expect(n).toMatch(/^[A-Za-z0-9_-]+\.zip$/);
  });

  it('is unique per transfer: two in the same second differ by their sequence number, two seconds apart by time', () => {
    const names = new Set([
      portalFileName('ANB-42', AT, 1),
      portalFileName('ANB-42', AT, 2),
      portalFileName('ANB-42', new Date(AT.getTime() + 1000), 1),
    ]);
    expect(names.size).toBe(3);
    // Within one second the milliseconds do not count: the sequence number does.
    expect(portalFileName('ANB-42', new Date('2025-06-15T08:30:07.999Z'), 1)).toBe(portalFileName('ANB-42', AT, 1));
  });

  it('refuses a provider number with nothing a file name can carry, an invalid date, a bad sequence number', () => {
    expect(() => portalFileName('/// äö', AT, 1)).toThrow(TypeError);
    expect(() => portalFileName('A', new Date('not a date'), 1)).toThrow(RangeError);
    for (const sequence of [-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])
      expect(() => portalFileName('A', AT, sequence)).toThrow(RangeError);
  });
});
