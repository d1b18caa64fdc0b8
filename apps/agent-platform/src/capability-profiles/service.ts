import { inTransaction } from '@platform/db';
import { ApiError, compileBodyValidator } from '@platform/http';
import { patchUnderLock } from '@platform/resource';
import type { ApiContext } from '@platform/service';
import { toColumns, toProfile } from './mapping.js';
import { insertProfile, profileRepository } from './repository.js';
import { PROFILE_READ_ONLY_FIELDS, ProfileInputSchema, type Profile, type ProfileInput, type ProfilePatch } from './schemas.js';

export type ProfileServiceDeps = Pick<ApiContext, 'db' | 'cursors' | 'now'>;

const validateInput = compileBodyValidator<ProfileInput>(ProfileInputSchema);

export type ProfileService = ReturnType<typeof createProfileService>;

/** Capability profiles of one account at a time; every query is scoped by `account_id`. */
export function createProfileService({ db, cursors, now }: ProfileServiceDeps) {
  return {
    async create(accountId: string, input: ProfileInput): Promise<Profile> {
      return toProfile(await insertProfile(db, accountId, input, now()));
    },

    async get(accountId: string, id: string): Promise<Profile> {
      return toProfile(await profileRepository.find(db, accountId, id));
    },

    list(accountId: string, { team, limit, cursor }: { team?: string; limit: number; cursor?: string }) {
      return profileRepository.page(db, accountId, { cursors, cursor, limit, filters: { team }, map: toProfile });
    },

    /** Merge patch under a row lock. Scores already given stay as they were until the request is scored again. */
    update(accountId: string, id: string, patch: ProfilePatch): Promise<Profile> {
      return inTransaction(db, (tx) =>
        patchUnderLock(tx, profileRepository, {
          accountId,
          id,
          patch,
          readOnly: PROFILE_READ_ONLY_FIELDS,
          validate: validateInput,
          toView: toProfile,
          toColumns,
          now,
          beforeWrite: async (changed, row) => {
            if (changed.includes('team') && (await tx.accessRequest.count({ where: { profile_id: id } })) > 0) {
              throw new ApiError('conflict', {
                message: `Access requests of team "${row.team}" use this profile, so its team cannot change; create a profile for the other team.`,
                details: [{ field: 'team', reason: 'not_allowed' }],
              });
            }
          },
        }),
      );
    },
  };
}
