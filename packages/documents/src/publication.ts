import { ApiError, type ErrorDetail } from '@platform/http';

export { markPublished, markWithdrawn } from './documents-sql.js';

/** The statuses from which a document may be published (again). */
const PUBLISHABLE_STATUSES = ['completed', 'published', 'withdrawn'] as const;

/** 409 unless the document is ready: generated, not failed. */
export function assertPublishable(status: string, what: string): void {
  if ((PUBLISHABLE_STATUSES as readonly string[]).includes(status)) return;
  throw new ApiError('invalid_transition', {
    message: `Only a completed ${what} can be published; this one is ${status}.`,
    messageDe: `Nur ein fertig erzeugtes Dokument kann veröffentlicht werden; dieses ist ${status}.`,
  });
}

/** A publication rule's findings: every problem one detail of one 422 `validation_failed`. */
export function assertRulePasses(details: ErrorDetail[], message: string): void {
  if (details.length > 0) throw new ApiError('validation_failed', { message, details });
}
