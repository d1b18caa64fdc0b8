import type { PrismaClient } from '@platform/db';
import { lockOwnRow, newId } from '@platform/db';
import { ApiError, NEWEST_FIRST, applyMergePatch, changedPaths, compileBodyValidator, cursorPage, notFound, type CursorCodec } from '@platform/http';
import { toColumns, toProfile } from './mapping.js';
import { ProfileInputSchema, type Profile, type ProfileInput, type ProfilePatch } from './schemas.js';

export interface ProfileServiceDeps {
  db: PrismaClient;
  cursors: CursorCodec;
  now: () => Date;
}

const validateInput = compileBodyValidator<ProfileInput>(ProfileInputSchema);
const NOT_FOUND_MESSAGE = 'No capability profile with this id.';

export type ProfileService = ReturnType<typeof createProfileService>;

/** Capability profiles of one account at a time; every query is scoped by `account_id`. */
export function createProfileService({ db, cursors, now }: ProfileServiceDeps) {
  return {
    async create(accountId: string, input: ProfileInput): Promise<Profile> {
      const at = now();
      const row = await db.capabilityProfile.create({ data: { id: newId('cap', at.getTime()), account_id: accountId, ...toColumns(input), created_at: at, updated_at: at } });
      return toProfile(row);
    },

    async get(accountId: string, id: string): Promise<Profile> {
      const row = await db.capabilityProfile.findFirst({ where: { id, account_id: accountId } });
      if (!row) throw notFound(NOT_FOUND_MESSAGE);
      return toProfile(row);
    },

    list(accountId: string, filter: { team?: string; limit: number; cursor?: string }) {
      return cursorPage({
        cursors,
        scope: `capability-profiles:${accountId}:${filter.team ?? ''}`,
        cursor: filter.cursor,
        limit: filter.limit,
        fetch: (after, take) => db.capabilityProfile.findMany({ where: { account_id: accountId, team: filter.team, ...after }, orderBy: NEWEST_FIRST, take }),
        map: toProfile,
      });
    },

    /** Merge patch under a row lock. Scores already given stay as they were until the request is scored again. */
    async update(accountId: string, id: string, patch: ProfilePatch): Promise<Profile> {
      return db.$transaction(async (tx) => {
        if (!(await lockOwnRow(tx, 'capability_profiles', id, accountId))) throw notFound(NOT_FOUND_MESSAGE);
        const before = toProfile(await tx.capabilityProfile.findUniqueOrThrow({ where: { id } }));
        const { id: _id, created_at: _c, updated_at: _u, ...current } = before;
        const input = applyMergePatch(current, patch, validateInput);
        const changed = changedPaths(current, { ...input, required_capabilities: input.required_capabilities ?? [] });
        if (changed.length === 0) return before;
        if (changed.includes('team') && (await tx.accessRequest.count({ where: { profile_id: id } })) > 0) {
          throw new ApiError('conflict', {
            message: `Access requests of team "${before.team}" use this profile, so its team cannot change; create a profile for the other team.`,
            details: [{ field: 'team', reason: 'not_allowed' }],
          });
        }
        return toProfile(await tx.capabilityProfile.update({ where: { id }, data: { ...toColumns(input), updated_at: now() } }));
      });
    },
  };
}
