import { Type } from '@sinclair/typebox';
import { inTransaction } from '@platform/db';
import { ApiError } from '@platform/http';
import { defineJob, type JobContext } from '@platform/service';
import { checkContent, claimBlob, releaseBlob, type ContentType } from '@platform/uploads';
import { mediaRepository } from './repository.js';
import { MEDIA_MAX_PIXELS, mediaContentRules } from './schemas.js';

/** Media handled per run: each is decoded in the sandbox, one at a time. */
const BATCH = 50;
/** Decoding one medium may take this long (as an upload by default). */
const DECODE_TIMEOUT_MS = 30_000;
/** The transaction that holds one medium from its decode to the write: the decode and storing its renditions. */
const CLAIM_TIMEOUT_MS = DECODE_TIMEOUT_MS + 20_000;

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
    for (const listed of await mediaRepository.withoutRenditions(db, BATCH)) {
      const outcome = await renditionsOf({ db, storage, sandbox, now }, listed.id);
      if (outcome === 'made') made++;
      else if (outcome === 'failed') failed++;
    }
    return { made, failed };
  },
});

/**
 * One medium, in one transaction that holds it from the decode to the write (`claimForRenditions`):
 * two runs at once (one still going when the next starts, a stalled job taken over by a second worker)
 * read the same list, and each medium is decoded, recorded and counted by one of them; the other
 * skips it. The transaction is open while the sandbox decodes (at most DECODE_TIMEOUT_MS) and holds
 * no row lock meanwhile, only the claim.
 */
async function renditionsOf(
  { db, storage, sandbox, now }: Pick<JobContext, 'db' | 'storage' | 'sandbox' | 'now'>,
  id: string,
): Promise<'made' | 'failed' | 'skipped'> {
  let renditions: { key: string }[] = [];
  const release = async () => {
    for (const rendition of renditions) await inTransaction(db, (tx) => releaseBlob(tx, storage, rendition.key));
  };
  try {
    return await db.$transaction(
      async (tx) => {
        const medium = await mediaRepository.claimForRenditions(tx, id);
        if (!medium) return 'skipped'; // another run holds it, or has done it
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
          return (await mediaRepository.recordRenditionFailure(tx, medium.id, error.message)) ? 'failed' : 'skipped';
        }
        renditions = content.renditions;
        for (const rendition of content.renditions) await claimBlob(tx, storage, rendition.key);
        if (await mediaRepository.addRenditions(tx, medium, content, now)) return 'made';
        for (const rendition of content.renditions) await releaseBlob(tx, storage, rendition.key); // the medium is gone
        return 'skipped';
      },
      { timeout: CLAIM_TIMEOUT_MS, maxWait: 10_000 },
    );
  } catch (error) {
    await release().catch(() => {}); // not recorded: the renditions' blobs go unless another row has them
    throw error;
  }
}
