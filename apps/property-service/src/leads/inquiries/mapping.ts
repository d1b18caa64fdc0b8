import type { InquiryScore } from '../matching/index.js';
import type { InquiryRow } from './repository.js';
import type { Inquiry } from './schemas.js';

/** An inquiry as the API shows it, with its score and explanation. */
export function toInquiry(row: InquiryRow): Inquiry {
  return {
    id: row.id,
    immobilie_id: row.property_id,
    interessent_id: row.prospect_id,
    nachricht: row.message,
    bewertung: row.score_details as unknown as InquiryScore,
    bewertet_am: row.scored_at.toISOString(),
    eingegangen_am: row.created_at.toISOString(),
    quelle: row.source,
  };
}
