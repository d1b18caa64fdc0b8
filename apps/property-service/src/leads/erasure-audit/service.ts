import { toSeite } from '@platform/http';
import type { ApiContext } from '@platform/service';
import { logTimeRange } from '../time-range.js';
import { erasureRecordPage, type ErasureRecordRow } from './repository.js';
import type { ErasureRecordQuery, ErasureRecordView } from './schemas.js';

const BY = { api_key: 'api_key', cli: 'cli', retention: 'aufbewahrungsfrist' } as const;

export function toErasureRecordView(row: ErasureRecordRow): ErasureRecordView {
  return {
    id: row.id,
    interessent_id: row.prospect_id,
    art: row.kind === 'erasure' ? 'loeschung' : 'anonymisierung',
    zeitpunkt: row.created_at.toISOString(),
    veranlasst_durch: {
      art: BY[row.requested_by as keyof typeof BY],
      anwendung_id: row.application_id,
      key_id: row.key_id,
    },
    betroffene_zeilen: { interessenten: 1, anfragen: row.inquiries_count, termine: row.appointments_count },
    erneut_angewendet_am: row.reapplied_at?.toISOString() ?? null,
  };
}

export type ErasureAuditService = ReturnType<typeof createErasureAuditService>;

/** The account's erasure log (Löschprotokoll), newest first. */
export function createErasureAuditService({ db, cursors }: Pick<ApiContext, 'db' | 'cursors'>) {
  return {
    async list(accountId: string, { limit, cursor, von, bis }: ErasureRecordQuery) {
      const range = logTimeRange({ von, bis });
      return toSeite(
        await erasureRecordPage(db, { accountId, cursors, cursor, limit, range, map: toErasureRecordView }),
      );
    },
  };
}
