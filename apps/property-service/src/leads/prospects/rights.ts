import { inTransaction } from '@platform/db';
import type { ApiContext } from '@platform/service';
import type { PropertyEvents } from '../../events.js';
import { syncConsentMirror, withdrawal, withdrawStanding } from '../consent/index.js';
import { toProspect } from './mapping.js';
import { lockChangeableProspect, prospectRepository, updateProspect } from './repository.js';
import type { Prospect } from './schemas.js';

export type RightsService = ReturnType<typeof createRightsService>;

/**
 * Restriction of processing (GDPR Art. 18) and objection to marketing (Art. 21). Each is a time
 * on the prospect that matching's outreach condition (`reachableForOutreach`) reads; each change
 * emits its event; repeating one changes nothing and emits nothing.
 */
export function createRightsService({ db, now, emit }: Pick<ApiContext<PropertyEvents>, 'db' | 'now' | 'emit'>) {
  function setRestriction(accountId: string, id: string, restricted: boolean): Promise<Prospect> {
    const at = now();
    return inTransaction(db, async (tx) => {
      const prospect = await lockChangeableProspect(tx, accountId, id);
      if ((prospect.restricted_at !== null) === restricted) return toProspect(prospect);
      const row = await updateProspect(tx, prospect.id, { restricted_at: restricted ? at : null, updated_at: at });
      const type = restricted ? 'prospect.restricted' : 'prospect.restriction_lifted';
      await emit(tx, { accountId, type, data: { interessent_id: prospect.id }, at });
      return toProspect(row);
    });
  }

  return {
    /** Kept, but no longer matched, contacted or exported. */
    restrict: (accountId: string, id: string) => setRestriction(accountId, id, true),
    lift: (accountId: string, id: string) => setRestriction(accountId, id, false),

    /**
     * Withdraws every marketing consent (each with `consent.withdrawn`) and refuses new ones from
     * then on; `prospect.objected` names the consents it withdrew.
     */
    object(accountId: string, id: string): Promise<Prospect> {
      const at = now();
      return inTransaction(db, async (tx) => {
        const prospect = await lockChangeableProspect(tx, accountId, id);
        if (prospect.objected_at) return toProspect(prospect);
        const withdrawn = await withdrawStanding(tx, accountId, prospect.id, 'marketing', at);
        for (const row of withdrawn)
          await emit(tx, { accountId, type: 'consent.withdrawn', data: withdrawal(row), at });
        const data = { interessent_id: prospect.id, einwilligung_ids: withdrawn.map((row) => row.id) };
        await emit(tx, { accountId, type: 'prospect.objected', data, at });
        await updateProspect(tx, prospect.id, { objected_at: at, updated_at: at });
        await syncConsentMirror(tx, accountId, prospect.id);
        return toProspect(await prospectRepository.find(tx, accountId, prospect.id));
      });
    },
  };
}
