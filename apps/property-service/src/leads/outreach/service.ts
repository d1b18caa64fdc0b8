import type { ApiContext } from '@platform/service';
import { outreachSql, type OutreachSettings } from './outreach-sql.js';
import type { TrefferEinstellungen } from './schemas.js';

export type OutreachSettingsService = ReturnType<typeof createOutreachSettingsService>;

const toEinstellungen = (settings: OutreachSettings): TrefferEinstellungen => ({
  treffer_schwelle: settings.threshold,
  treffer_pro_tag: settings.daily_limit,
});

/** The account's Treffer settings (the defaults until it sets its own). */
export function createOutreachSettingsService({ db, now }: Pick<ApiContext, 'db' | 'now'>) {
  return {
    async get(accountId: string): Promise<TrefferEinstellungen> {
      return toEinstellungen(await outreachSql.settings(db, accountId));
    },

    /** Replaces both values; runs already under way keep the values they read. */
    async put(accountId: string, input: TrefferEinstellungen): Promise<TrefferEinstellungen> {
      const settings = { threshold: input.treffer_schwelle, daily_limit: input.treffer_pro_tag };
      await outreachSql.saveSettings(db, accountId, settings, now());
      return toEinstellungen(settings);
    },
  };
}
