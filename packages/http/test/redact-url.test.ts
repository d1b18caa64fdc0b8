import { describe, expect, it } from 'vitest';
import { redactUrl, secretSegmentPattern } from '../src/index.js';

const TOKEN = 'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFi';
const feeds = [secretSegmentPattern('/public/v1/feeds/')];
const redact = (url: string) => redactUrl(url, new Set(['limit', 'cursor', 'status']), feeds);

describe('secret path segments in logged URLs', () => {
  it('replaces the segment after the prefix, on every route below it', () => {
    expect(redact(`/public/v1/feeds/${TOKEN}/listings`)).toBe('/public/v1/feeds/[REDACTED]/listings');
    expect(redact(`/public/v1/feeds/${TOKEN}/listings/lst_1/pdf`)).toBe(
      '/public/v1/feeds/[REDACTED]/listings/lst_1/pdf',
    );
    expect(redact(`/public/v1/feeds/${TOKEN}/media/${'a'.repeat(64)}`)).toBe(
      `/public/v1/feeds/[REDACTED]/media/${'a'.repeat(64)}`,
    );
    expect(redact(`/public/v1/feeds/${TOKEN}`)).toBe('/public/v1/feeds/[REDACTED]');
    expect(redact(`/public/v1/feeds/${TOKEN}?limit=5`)).toBe('/public/v1/feeds/[REDACTED]?limit=5');
  });

  it('finds it however the URL is written: case, repeated slashes, percent-encoding, absolute form, a query value', () => {
    for (const url of [
      `/PUBLIC/v1/Feeds/${TOKEN}/listings`,
      `//public//v1/feeds//${TOKEN}/listings`,
      `/public/v1/%66eeds/${TOKEN}/listings`,
      `/public/v1/feeds/${encodeURIComponent(TOKEN).replace(/Z/g, '%5A')}/listings`,
      `http://api.example.com/public/v1/feeds/${TOKEN}/listings`,
      `/v1/properties?status=${encodeURIComponent(`/public/v1/feeds/${TOKEN}/listings`)}`,
      `/v1/x/../../public/v1/feeds/${TOKEN};x=1`,
    ]) {
      const logged = redact(url);
      expect(logged, url).not.toContain(TOKEN);
      expect(logged, url).toMatch(/feeds\/+\[REDACTED\]/i);
    }
  });

  it('leaves other paths as they are, and still redacts secret query parameters', () => {
    expect(redact('/v1/channels/chan_1/rotate-feed-token')).toBe('/v1/channels/chan_1/rotate-feed-token');
    expect(redact('/public/v1/openapi.json')).toBe('/public/v1/openapi.json');
    expect(redact(`/public/v1/feedsx/${TOKEN}`)).toBe(`/public/v1/feedsx/${TOKEN}`);
    expect(redact(`/v1/properties?token=${TOKEN}&limit=2`)).toBe('/v1/properties?token=[REDACTED]&limit=2');
    expect(redactUrl(`/public/v1/feeds/${TOKEN}/listings`)).toBe(`/public/v1/feeds/${TOKEN}/listings`); // no prefixes given
  });
});
