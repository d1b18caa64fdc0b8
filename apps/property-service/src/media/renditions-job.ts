import { Type } from '@sinclair/typebox';
import { inTransaction } from '@platform/db';
import { ApiError } from '@platform/http';
import { defineJob } from '@platform/service';
import { checkContent, claimBlob, releaseBlob, type ContentType } from '@platform/uploads';
import { mediaRepository } from './repository.js';
import { MEDIA_MAX_PIXELS, mediaContentRules } from './schemas.js';

/** Media handled per run: each is decoded in the sandbox, one at a time. */
const BATCH = 50;
/** Decoding one medium may take this long (as an upload by default). */
const DECODE_TIMEOUT_MS = 30_000;

/**
 * Makes the renditions of photos and floor plans stored before renditions existed (until it has,
 * they are left out of new listings: an original is never published). A file that cannot be
 * decoded within the limits gets its reason in `rendition_failure` (shown with the medium) and is
 * not tried again. The limits are the defaults (40 megapixels, 30 s): a job does not see the
 * service's settings (MEDIA_MAX_PIXELS, SANDBOX_DECODE_SECONDS).
 */
export const MEDIA_RENDITIONS_JOB = defineJob({
  name: 'make-media-renditions',
  description: `Makes the renditions of up to ${BATCH} photos and floor plans stored before renditions existed; a file that cannot be decoded gets its reason and is left out of listings.`,
  payload: Type.Object({}, { additionalProperties: false }),
  schedule: { pattern: '*/10 * * * *', tz: 'UTC' },
  retry: { attempts: 1, backoffMs: 0 },
  run: async ({ db, storage, sandbox, now }) => {
    let made = 0;
    let failed = 0;
    for (const medium of await mediaRepository.withoutRenditions(db, BATCH)) {
      const rules = mediaContentRules(medium.kind, { maxPixels: MEDIA_MAX_PIXELS, timeoutMs: DECODE_TIMEOUT_MS });
      let content;
      try {
        content = await checkContent(
          { sandbox, storage },
          { key: medium.sha256, sha256: medium.sha256, size: medium.size },
          medium.content_type as ContentType,
          rules,
        );
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'validation_failed') throw error; // busy, storage: the next run
        await mediaRepository.recordRenditionFailure(db, medium.id, error.message);
        failed++;
        continue;
      }
      const release = async () => {
        for (const rendition of content.renditions)
          await inTransaction(db, (tx) => releaseBlob(tx, storage, rendition.key));
      };
      let recorded: boolean;
      try {
        recorded = await inTransaction(db, async (tx) => {
          for (const rendition of content.renditions) await claimBlob(tx, storage, rendition.key);
          return mediaRepository.addRenditions(tx, medium, content, now);
        });
      } catch (error) {
        await release().catch(() => {});
        throw error;
      }
      if (recorded) made++;
      else await release(); // gone, or made meanwhile by another run
    }
    return { made, failed };
  },
});
