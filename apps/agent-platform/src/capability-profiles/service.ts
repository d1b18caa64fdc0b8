import { inTransaction, type Db } from '@platform/db';
import { ApiError, compileBodyValidator } from '@platform/http';
import { definePatch } from '@platform/resource';
import type { ApiContext } from '@platform/service';
import { toColumns, toCapabilityProfile } from './mapping.js';
import { insertCapabilityProfile, capabilityProfileRepository } from './repository.js';
import {
  CAPABILITY_PROFILE_READ_ONLY_FIELDS,
  CapabilityProfileInputSchema,
  type CapabilityProfile,
  type CapabilityProfileInput,
  type CapabilityProfilePatch,
} from './schemas.js';

export type CapabilityProfileServiceDeps = Pick<ApiContext, 'db' | 'cursors' | 'now'> & {
  /** Whether an access request is scored against the profile (access requests, passed in: they use profiles). */
  profileInUse: (db: Db, profileId: string) => Promise<boolean>;
};

const patchCapabilityProfile = definePatch(capabilityProfileRepository, {
  readOnly: CAPABILITY_PROFILE_READ_ONLY_FIELDS,
  validate: compileBodyValidator<CapabilityProfileInput>(CapabilityProfileInputSchema),
  toView: toCapabilityProfile,
  toColumns,
});

export type CapabilityProfileService = ReturnType<typeof createCapabilityProfileService>;

/** Capability profiles of one account at a time; every query is scoped by `account_id`. */
export function createCapabilityProfileService({ db, cursors, now, profileInUse }: CapabilityProfileServiceDeps) {
  return {
    async create(accountId: string, input: CapabilityProfileInput): Promise<CapabilityProfile> {
      return toCapabilityProfile(await insertCapabilityProfile(db, accountId, input, now()));
    },

    async get(accountId: string, id: string): Promise<CapabilityProfile> {
      return toCapabilityProfile(await capabilityProfileRepository.find(db, accountId, id));
    },

    list(accountId: string, { team, limit, cursor }: { team?: string; limit: number; cursor?: string }) {
      return capabilityProfileRepository.page(db, accountId, {
        cursors,
        cursor,
        limit,
        filters: { team },
        map: toCapabilityProfile,
      });
    },

    /** Merge patch under a row lock. Scores already given stay as they were until the request is scored again. */
    update(accountId: string, id: string, patch: CapabilityProfilePatch): Promise<CapabilityProfile> {
      return inTransaction(db, (tx) =>
        patchCapabilityProfile(tx, {
          accountId,
          id,
          patch,
          now,
          beforeWrite: async (changed, row) => {
            if (changed.includes('team') && (await profileInUse(tx, id))) {
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
