import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@platform/runtime';
import { propertyDescriptor } from '../src/descriptor.js';

const cwd = mkdtempSync(join(tmpdir(), 'config-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe('the property-marketing service in the configuration', () => {
  it('listens on 3000, keeps prospects 180 days, takes 40-megapixel images and 100 media per property, limits feeds and journals erasures under DATA_DIR unless configured', () => {
    const feedDefaults = { feedRateLimitPerToken: 600, feedRateLimitPerAddress: 1200, feedCacheMb: 32 };
    expect(loadConfig({}, cwd, [propertyDescriptor]).services.property).toEqual({
      port: 3000,
      publicBaseUrl: 'http://localhost:3000',
      publicBaseUrls: { sandbox: 'http://localhost:3000' },
      settings: { leadsRetentionDays: 180, mediaMaxPixels: 40_000_000, mediaMaxPerProperty: 100, ...feedDefaults },
      directories: { erasureJournalDir: join(cwd, '.data', 'erasure-journal') },
    });
    expect(
      loadConfig(
        {
          PROPERTY_PORT: '3300',
          LEADS_RETENTION_DAYS: '30',
          MEDIA_MAX_PIXELS: '12000000',
          MEDIA_MAX_PER_PROPERTY: '20',
        },
        cwd,
        [propertyDescriptor],
      ).services.property,
    ).toEqual({
      port: 3300,
      publicBaseUrl: 'http://localhost:3300',
      publicBaseUrls: { sandbox: 'http://localhost:3300' },
      settings: { leadsRetentionDays: 30, mediaMaxPixels: 12_000_000, mediaMaxPerProperty: 20, ...feedDefaults },
      directories: { erasureJournalDir: join(cwd, '.data', 'erasure-journal') },
    });
    expect(
      loadConfig({ FEED_RATE_LIMIT_PER_TOKEN: '60', FEED_RATE_LIMIT_PER_ADDRESS: '90', FEED_CACHE_MB: '8' }, cwd, [
        propertyDescriptor,
      ]).services.property?.settings,
    ).toMatchObject({ feedRateLimitPerToken: 60, feedRateLimitPerAddress: 90, feedCacheMb: 8 });
  });

  it('refuses a retention period that is not a whole number of days from 1 to 3650', () => {
    expect(() => loadConfig({ LEADS_RETENTION_DAYS: '0' }, cwd, [propertyDescriptor])).toThrow(
      'LEADS_RETENTION_DAYS must be a whole number of days, 1 to 3650 (got "0").',
    );
  });

  it('refuses a feed budget that is not a whole number of requests per minute', () => {
    expect(() => loadConfig({ FEED_RATE_LIMIT_PER_ADDRESS: '0.5' }, cwd, [propertyDescriptor])).toThrow(
      'FEED_RATE_LIMIT_PER_ADDRESS must be a whole number of requests per minute, 1 to 1000000 (got "0.5").',
    );
  });
});
