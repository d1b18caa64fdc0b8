import { describe, expect, it } from 'vitest';
import { newId, newIds } from '../src/ids.js';

describe('ids', () => {
  it('newId: prefix, 10 time characters that sort with the time, 16 random ones', () => {
    const earlier = newId('use', 1_700_000_000_000);
    const later = newId('use', 1_700_000_000_001);
    expect(earlier).toMatch(/^use_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(earlier.slice(4, 14) < later.slice(4, 14)).toBe(true);
  });

  it('newIds: a batch of distinct ids of the same instant from one draw of random bytes', () => {
    const ids = newIds('use', 1_000, 1_700_000_000_000);
    expect(ids).toHaveLength(1_000);
    expect(new Set(ids).size).toBe(1_000);
    expect(new Set(ids.map((id) => id.slice(0, 14)))).toEqual(new Set([newId('use', 1_700_000_000_000).slice(0, 14)]));
    for (const id of ids) expect(id).toMatch(/^use_[0-9a-hjkmnp-tv-z]{26}$/);
  });
});
