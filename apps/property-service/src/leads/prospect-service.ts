import type { PrismaClient } from '@platform/db';
import { lockOwnRow, newId } from '@platform/db';
import { ApiError, NEWEST_FIRST, applyMergePatch, compileBodyValidator, cursorPage, toSeite, type CursorCodec } from '@platform/http';
import { toColumns, toInteressent } from './prospect-mapping.js';
import { eraseProspect } from './retention.js';
import { InteressentAnlegenSchema, type Interessent, type InteressentAnlegen, type InteressentPatch } from './prospect-schemas.js';

export interface ProspectServiceDeps {
  db: PrismaClient;
  cursors: CursorCodec;
  now: () => Date;
  /** Retention period in days, counted from the last activity (creation or latest inquiry). */
  retentionDays: number;
}

const validateInput = compileBodyValidator<InteressentAnlegen>(InteressentAnlegenSchema);

export const prospectNotFound = () => new ApiError('not_found', { message: 'No prospect with this id.', messageDe: 'Kein Interessent mit dieser ID.' });

/** The retention date: last activity plus the retention period, as a calendar date (UTC). */
export function retentionUntil(lastActivity: Date, retentionDays: number): Date {
  const day = new Date(Date.UTC(lastActivity.getUTCFullYear(), lastActivity.getUTCMonth(), lastActivity.getUTCDate()));
  day.setUTCDate(day.getUTCDate() + retentionDays);
  return day;
}

export type ProspectService = ReturnType<typeof createProspectService>;

/** Prospects of one account at a time; every query is scoped by `account_id`. */
export function createProspectService({ db, cursors, now, retentionDays }: ProspectServiceDeps) {
  async function find(accountId: string, id: string) {
    const row = await db.prospect.findFirst({ where: { id, account_id: accountId } });
    if (!row) throw prospectNotFound();
    return row;
  }

  return {
    async create(accountId: string, input: InteressentAnlegen): Promise<Interessent> {
      const at = now();
      const row = await db.prospect.create({
        data: {
          id: newId('int', at.getTime()),
          account_id: accountId,
          ...toColumns(input),
          last_activity_at: at,
          retention_until: retentionUntil(at, retentionDays),
          created_at: at,
          updated_at: at,
        },
      });
      return toInteressent(row);
    },

    async get(accountId: string, id: string): Promise<Interessent> {
      return toInteressent(await find(accountId, id));
    },

    async list(accountId: string, query: { limit: number; cursor?: string; suchprofil_aktiv?: boolean }) {
      const page = await cursorPage({
        cursors,
        scope: `prospects:${accountId}:${query.suchprofil_aktiv ?? ''}`,
        cursor: query.cursor,
        limit: query.limit,
        fetch: (after, take) =>
          db.prospect.findMany({ where: { account_id: accountId, profil_aktiv: query.suchprofil_aktiv, ...after }, orderBy: NEWEST_FIRST, take }),
        map: toInteressent,
      });
      return toSeite(page);
    },

    /** Immediate, irreversible erasure of the personal data; repeating it is harmless. */
    async erase(accountId: string, id: string) {
      const erasedAt = await eraseProspect(db, accountId, id, now());
      if (!erasedAt) throw prospectNotFound();
      return { id, status: 'geloescht' as const, geloescht_am: erasedAt.toISOString() };
    },

    /** Merge patch like the property API; an anonymised prospect cannot be changed (409). */
    async update(accountId: string, id: string, patch: InteressentPatch): Promise<Interessent> {
      return db.$transaction(async (tx) => {
        if (!(await lockOwnRow(tx, 'prospects', id, accountId))) throw prospectNotFound();
        const row = await tx.prospect.findUniqueOrThrow({ where: { id } });
        if (row.anonymised_at) {
          throw new ApiError('conflict', { message: 'The prospect was anonymised.', messageDe: 'Der Interessent wurde anonymisiert und kann nicht mehr geändert werden.' });
        }
        const { id: _id, aufbewahrung_bis: _a, angelegt_am: _c, aktualisiert_am: _u, anonymisiert: _x, ...current } = toInteressent(row);
        const input = applyMergePatch(current, patch, validateInput);
        const updated = await tx.prospect.update({ where: { id }, data: { ...toColumns(input), updated_at: now() } });
        return toInteressent(updated);
      });
    },
  };
}
