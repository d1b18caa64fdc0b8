import { describe, expect, it } from 'vitest';
import { changedPaths, mergePatch, withoutNulls } from '../src/merge-patch.js';

describe('mergePatch (RFC 7396)', () => {
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: { b: 'c', d: 'e' } }, { a: { b: 'x' } }, { a: { b: 'x', d: 'e' } }],
    [{ a: { b: 'c' } }, { a: { b: null } }, { a: {} }],
    [{ a: [1, 2] }, { a: [3] }, { a: [3] }],
    [{ a: 'b' }, { a: { c: 1 } }, { a: { c: 1 } }],
    [{ a: 1 }, {}, { a: 1 }],
  ])('merges %j with %j into %j', (target, patch, expected) => {
    expect(mergePatch(target, patch)).toEqual(expected);
  });

  it('does not change its inputs', () => {
    const target = { a: { b: 1 } };
    mergePatch(target, { a: { b: 2 } });
    expect(target).toEqual({ a: { b: 1 } });
  });

  it('withoutNulls drops null members at every depth', () => {
    expect(withoutNulls({ a: null, b: { c: null, d: 1 }, e: [1] })).toEqual({ b: { d: 1 }, e: [1] });
  });
});

describe('changedPaths', () => {
  it('lists the dotted paths of changed leaves', () => {
    const before = { a: 1, b: { c: 'x', d: null }, e: [1, 2], f: null };
    const after = { a: 1, b: { c: 'y', d: null }, e: [1, 3], f: { g: 1 } };
    expect(changedPaths(before, after).sort()).toEqual(['b.c', 'e', 'f.g']);
    expect(changedPaths(after, after)).toEqual([]);
    expect(changedPaths({ f: { g: 1 } }, { f: null })).toEqual(['f.g']);
  });
});
