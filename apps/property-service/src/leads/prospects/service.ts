import { inTransaction, newId, type Db } from '@platform/db';
import { compileBodyValidator, toSeite } from '@platform/http';
import { definePatch } from '@platform/resource';
import type { ApiContext } from '@platform/service';
import type { PropertyEvents } from '../../events.js';
import { createConsentService, recordDeclaredConsent } from '../consent/index.js';
import { leadsError } from '../dialect.js';
import { eraseProspect, type EndViewings } from '../retention/index.js';
import { auditedErasure, type ErasureJournal, type ErasureRequester } from '../erasure-audit/index.js';
import { toColumns, toPatchView, toProspect, type ProspectRow } from './mapping.js';
import { createRightsService } from './rights.js';
import {
  insertProspect,
  lockChangeableProspect,
  prospectNotFound,
  prospectRepository,
  updateProspect,
} from './repository.js';
import {
  PROSPECT_READ_ONLY,
  ProspectInputSchema,
  type Prospect,
  type ProspectInput,
  type ProspectPatch,
} from './schemas.js';

export interface ProspectServiceDeps extends Pick<ApiContext<PropertyEvents>, 'db' | 'cursors' | 'now' | 'emit'> {
  /** Retention period in days, counted from the last activity (creation or latest inquiry). */
  retentionDays: number;
  /** Cancels an erased prospect's open viewings (appointments, passed in by the app). */
  endViewings: EndViewings;
  /** Where erasures are also kept outside the database (see erasure-audit); absent: the database only. */
  erasureJournal?: ErasureJournal;
}

const patchProspect = definePatch(prospectRepository, {
  readOnly: PROSPECT_READ_ONLY,
  validate: compileBodyValidator<ProspectInput>(ProspectInputSchema),
  toView: toPatchView,
  toColumns,
});

/** The retention date: last activity plus the retention period, as a calendar date (UTC). */
export function retentionUntil(lastActivity: Date, retentionDays: number): Date {
  const day = new Date(Date.UTC(lastActivity.getUTCFullYear(), lastActivity.getUTCMonth(), lastActivity.getUTCDate()));
  day.setUTCDate(day.getUTCDate() + retentionDays);
  return day;
}

/** Last activity now: the retention period starts again. */
const activity = (at: Date, retentionDays: number) => ({
  last_activity_at: at,
  retention_until: retentionUntil(at, retentionDays),
  updated_at: at,
});

/**
 * The prospect of a new inquiry, inside the inquiry's transaction: a new one from the inline
 * input, or the existing one locked (an erasure or anonymisation running now finishes first and
 * is then seen, or waits for the inquiry and then removes its message too). Either way its
 * retention period starts again.
 */
export async function prospectForInquiry(
  tx: Db,
  request: { accountId: string; existingId?: string; input?: ProspectInput; at: Date; retentionDays: number },
): Promise<ProspectRow> {
  const { accountId, at, retentionDays } = request;
  if (request.input) {
    const created = await insertProspect(tx, {
      id: newId('int', at.getTime()),
      account_id: accountId,
      ...toColumns(request.input),
      ...activity(at, retentionDays),
      created_at: at,
    });
    await recordDeclaredConsent(tx, created, at, 'interessent.einwilligung.erteilt_am');
    return created;
  }
  const existing = await prospectRepository.lock(tx, accountId, request.existingId!);
  if (existing.anonymised_at) throw leadsError('prospect_anonymised');
  return updateProspect(tx, existing.id, activity(at, retentionDays));
}

export type ProspectService = ReturnType<typeof createProspectService>;

/** Prospects of one account at a time; every query is scoped by `account_id`. */
export function createProspectService(deps: ProspectServiceDeps) {
  const { db, cursors, now, retentionDays, endViewings, erasureJournal } = deps;
  return {
    /** Consents with their history (`/einwilligungen`). */
    consents: createConsentService({
      ...deps,
      lockChangeable: lockChangeableProspect,
      findProspect: (tx, accountId, id) => prospectRepository.find(tx, accountId, id),
    }),
    /** Restriction (Art. 18) and objection (Art. 21). */
    rights: createRightsService(deps),

    /** A new prospect; its `einwilligung` becomes its first consent record. */
    create(accountId: string, input: ProspectInput): Promise<Prospect> {
      const at = now();
      return inTransaction(db, async (tx) => {
        const row = await insertProspect(tx, {
          id: newId('int', at.getTime()),
          account_id: accountId,
          ...toColumns(input),
          ...activity(at, retentionDays),
          created_at: at,
        });
        await recordDeclaredConsent(tx, row, at);
        return toProspect(await prospectRepository.find(tx, accountId, row.id));
      });
    },

    async get(accountId: string, id: string): Promise<Prospect> {
      return toProspect(await prospectRepository.find(db, accountId, id));
    },

    async list(
      accountId: string,
      { suchprofil_aktiv, limit, cursor }: { limit: number; cursor?: string; suchprofil_aktiv?: boolean },
    ) {
      return toSeite(
        await prospectRepository.page(db, accountId, {
          cursors,
          cursor,
          limit,
          filters: { profile_active: suchprofil_aktiv },
          map: toProspect,
        }),
      );
    },

    /** Immediate, irreversible erasure of the personal data; repeating it is harmless. */
    async erase(accountId: string, id: string, requester: ErasureRequester) {
      // The erasure's audit record (and journal entry) is written in its transaction.
      const erasedAt = await auditedErasure(
        { db, endViewings, journal: erasureJournal },
        { accountId, requester },
        (audited) => eraseProspect(db, accountId, id, now(), audited),
      );
      if (!erasedAt) throw prospectNotFound();
      return { id, status: 'geloescht' as const, geloescht_am: erasedAt.toISOString() };
    },

    /**
     * Merge patch like the property API; an anonymised prospect cannot be changed (409). A changed
     * `einwilligung` is a new marketing consent record (409 after an objection); so is one sent
     * while the prospect has no valid one (consent given again, even in the old words).
     * `einwilligung: null` is refused by the body's schema (422), as before: it cannot be removed.
     */
    update(accountId: string, id: string, patch: ProspectPatch): Promise<Prospect> {
      const sent = patch.einwilligung !== undefined && patch.einwilligung !== null;
      let hadValid = false;
      const consentChanged = (changed: string[]) =>
        (sent && !hadValid) || changed.some((path) => path.startsWith('einwilligung'));
      return inTransaction(db, async (tx) => {
        await patchProspect(tx, {
          accountId,
          id,
          patch,
          now,
          guard: (row) => {
            if (row.anonymised_at) throw leadsError('prospect_anonymised_unchangeable');
          },
          beforeWrite: async (changed, row) => {
            hadValid = row.marketing_consent_valid;
            if (consentChanged(changed) && row.objected_at) throw leadsError('prospect_objected');
          },
          afterWrite: async (changed, row, at) => {
            if (consentChanged(changed)) await recordDeclaredConsent(tx, row, at);
          },
          writeUnchanged: true,
        });
        return toProspect(await prospectRepository.find(tx, accountId, id));
      });
    },
  };
}
