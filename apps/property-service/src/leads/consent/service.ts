import { inTransaction, newId, type Db } from '@platform/db';
import type { ApiContext } from '@platform/service';
import type { PropertyEvents } from '../../events.js';
import { leadsError } from '../dialect.js';
import { PURPOSE, SOURCE, toConsentRecord, type ConsentRow } from './mapping.js';
import {
  confirmConsent,
  consentOf,
  consentsOf,
  insertConsent,
  lastWithdrawal,
  syncConsentMirror,
  withdrawConsent,
  withdrawStanding,
} from './consent-sql.js';
import { assertGivenAfterWithdrawal, assertGivenByNow } from './given-at.js';
import { DOUBLE_OPT_IN_QUELLEN, type ConsentInput, type ConsentRecord } from './schemas.js';

/** The prospect as consents need it; its owner (prospects) locks and finds it, scoped by the account. */
export interface ConsentSubject {
  id: string;
  account_id: string;
  anonymised_at: Date | null;
  objected_at: Date | null;
  consent_purpose: string | null;
  consent_given_at: Date | null;
}

export interface ConsentServiceDeps extends Pick<ApiContext<PropertyEvents>, 'db' | 'now' | 'emit'> {
  /** Locks the account's prospect for a change; throws its 404 when missing or another account's, its 409 when anonymised. */
  lockChangeable: (tx: Db, accountId: string, id: string) => Promise<ConsentSubject>;
  /** Finds the account's prospect; throws its 404 when missing or another account's. */
  findProspect: (db: Db, accountId: string, id: string) => Promise<ConsentSubject>;
}
export type ConsentService = ReturnType<typeof createConsentService>;

/**
 * The first consent record of a prospect, from the prospect's `einwilligung` (create, inline with
 * an inquiry, or changed by PATCH): a marketing consent in the given words, source `sonstiges`, no
 * double opt-in (the shape has none), so it is valid at once. One given at or before the latest
 * marketing withdrawal is refused on `field` (422).
 */
export async function recordDeclaredConsent(
  tx: Db,
  prospect: ConsentSubject,
  at: Date,
  field = 'einwilligung.erteilt_am',
): Promise<void> {
  if (!prospect.consent_given_at) return;
  const withdrawnAt = await lastWithdrawal(tx, prospect.account_id, prospect.id, 'marketing');
  assertGivenAfterWithdrawal(prospect.consent_given_at, withdrawnAt, field);
  await insertConsent(tx, {
    id: newId('ein', at.getTime()),
    account_id: prospect.account_id,
    prospect_id: prospect.id,
    purpose: 'marketing',
    wording: prospect.consent_purpose,
    source: 'other',
    requires_confirmation: false,
    given_at: prospect.consent_given_at,
    created_at: at,
  });
  await syncConsentMirror(tx, prospect.account_id, prospect.id);
}

/** Consents of one account's prospects with their history: given, confirmed (double opt-in), withdrawn (Art. 7(3)). */
export function createConsentService({ db, now, emit, lockChangeable, findProspect }: ConsentServiceDeps) {
  async function lockConsent(tx: Db, accountId: string, prospectId: string, id: string) {
    const prospect = await lockChangeable(tx, accountId, prospectId);
    const consent = await consentOf(tx, accountId, prospect.id, id);
    if (!consent) throw leadsError('consent_not_found');
    return consent;
  }
  /** After a consent changed: the prospect's mirror follows, and the result is the record. */
  async function settled(tx: Db, consent: ConsentRow): Promise<ConsentRecord> {
    await syncConsentMirror(tx, consent.account_id, consent.prospect_id);
    return toConsentRecord(consent);
  }

  return {
    async list(accountId: string, prospectId: string) {
      const prospect = await findProspect(db, accountId, prospectId);
      return { daten: (await consentsOf(db, accountId, prospect.id)).map(toConsentRecord) };
    },

    /**
     * A new record; `erteilt_am` may not be later than now (beyond a small clock skew: 422), nor, for
     * marketing, at or before the latest marketing withdrawal (422).
     */
    give(accountId: string, prospectId: string, input: ConsentInput): Promise<ConsentRecord> {
      const at = now();
      const givenAt = assertGivenByNow(input.erteilt_am, at, 'erteilt_am');
      return inTransaction(db, async (tx) => {
        const prospect = await lockChangeable(tx, accountId, prospectId);
        if (input.zweck === 'marketing' && prospect.objected_at) throw leadsError('prospect_objected');
        if (input.zweck === 'marketing')
          assertGivenAfterWithdrawal(
            givenAt,
            await lastWithdrawal(tx, accountId, prospect.id, 'marketing'),
            'erteilt_am',
          );
        const row = await insertConsent(tx, {
          id: newId('ein', at.getTime()),
          account_id: accountId,
          prospect_id: prospect.id,
          purpose: PURPOSE[input.zweck],
          wording: input.zweck_text ?? null,
          text_version: input.textversion ?? null,
          source: SOURCE[input.quelle],
          requires_confirmation: input.double_opt_in ?? DOUBLE_OPT_IN_QUELLEN.includes(input.quelle),
          given_at: givenAt,
          created_at: at,
        });
        return settled(tx, row);
      });
    },

    /** Double opt-in confirmed now; confirming again changes nothing; a withdrawn consent cannot be (409). */
    confirm(accountId: string, prospectId: string, id: string): Promise<ConsentRecord> {
      const at = now();
      return inTransaction(db, async (tx) => {
        const consent = await lockConsent(tx, accountId, prospectId, id);
        if (consent.withdrawn_at) throw leadsError('consent_withdrawn');
        if (consent.confirmed_at) return toConsentRecord(consent);
        return settled(tx, await confirmConsent(tx, accountId, consent.id, at));
      });
    },

    /**
     * Art. 7(3): withdrawn now. Withdrawing a marketing consent withdraws consent to marketing:
     * every marketing record of the prospect not yet withdrawn ends with it (awaiting confirmation
     * too), each with its own `consent.withdrawn`. A `kontaktaufnahme` record ends alone.
     * Withdrawing again returns the first withdrawal and emits nothing.
     */
    withdraw(accountId: string, prospectId: string, id: string): Promise<ConsentRecord> {
      const at = now();
      return inTransaction(db, async (tx) => {
        const consent = await lockConsent(tx, accountId, prospectId, id);
        if (consent.withdrawn_at) return toConsentRecord(consent);
        const ended =
          consent.purpose === 'marketing'
            ? await withdrawStanding(tx, accountId, consent.prospect_id, 'marketing', at)
            : [await withdrawConsent(tx, accountId, consent.id, at)];
        for (const row of ended) await emit(tx, { accountId, type: 'consent.withdrawn', data: withdrawal(row), at });
        return settled(
          tx,
          ended.find((row) => row.id === consent.id)!,
        );
      });
    },
  };
}

/** The data of `consent.withdrawn`. */
export const withdrawal = (row: Pick<ConsentRow, 'id' | 'prospect_id' | 'purpose'>) => ({
  einwilligung_id: row.id,
  interessent_id: row.prospect_id,
  zweck: row.purpose === 'marketing' ? ('marketing' as const) : ('kontaktaufnahme' as const),
});
