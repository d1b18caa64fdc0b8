import { inTransaction, newId } from '@platform/db';
import { ApiError, notFound, validationError } from '@platform/http';
import { rescoreUnderLock, scoreColumns, scoredPage } from '@platform/resource';
import type { ApiContext } from '@platform/service';
import { agentRepository } from '../agents/index.js';
import { insertCapabilityProfile, capabilityProfileRepository } from '../capability-profiles/index.js';
import type { AgentPlatformEvents } from '../events.js';
import {
  ACCESS_SCORE,
  accessRequestRepository,
  insertAccessRequest,
  scoredOn,
  type AccessRequestRow,
} from './repository.js';
import { scoreAccessRequest, type Explanation } from './scoring.js';
import type { AccessRequest, AccessRequestInput, Score } from './schemas.js';

export type AccessRequestServiceDeps = Pick<ApiContext<AgentPlatformEvents>, 'db' | 'scoredCursors' | 'now' | 'emit'>;

function toAccessRequest(row: AccessRequestRow): AccessRequest {
  const details = row.score_details as unknown as Explanation;
  return {
    id: row.id,
    agent_id: row.agent_id,
    team: row.team,
    purpose: row.purpose,
    profile_id: row.profile_id,
    score: { total: row.score, weights_version: row.weights_version, knocked_out: details.knocked_out },
    scored_at: row.scored_at.toISOString(),
    created_at: row.created_at.toISOString(),
  };
}

function toScore(row: AccessRequestRow): Score {
  return {
    request_id: row.id,
    ...(row.score_details as unknown as Explanation),
    scored_at: row.scored_at.toISOString(),
  };
}

export type AccessRequestService = ReturnType<typeof createAccessRequestService>;

/** Access requests: scored on arrival (and again on demand) against the agent and the team's capability profile. */
export function createAccessRequestService({ db, scoredCursors, now, emit }: AccessRequestServiceDeps) {
  return {
    create(accountId: string, body: AccessRequestInput): Promise<AccessRequest> {
      if (body.profile_id === undefined && body.profile === undefined)
        throw validationError([{ field: 'profile_id', reason: 'missing' }]);
      if (body.profile_id !== undefined && body.profile !== undefined)
        throw validationError([{ field: 'profile', reason: 'not_allowed' }]);
      const at = now();
      return inTransaction(db, async (tx) => {
        // FOR SHARE: a concurrent retire waits until the request is stored (and so is never lost to it).
        const agent = await agentRepository.lock(tx, accountId, body.agent_id, 'share', () =>
          notFound('No agent with the agent_id.'),
        );
        if (agent.status !== 'active')
          throw new ApiError('conflict', { message: `The agent is ${agent.status}; access cannot be requested.` });
        const profile = body.profile
          ? await insertCapabilityProfile(tx, accountId, { ...body.profile, team: body.team }, at)
          : // FOR SHARE: a concurrent change of the profile's team waits until the request is stored.
            await capabilityProfileRepository.lock(tx, accountId, body.profile_id!, 'share', () =>
              notFound('No capability profile with the profile_id.'),
            );
        if (profile.team !== body.team) {
          throw validationError(
            [{ field: 'team', reason: 'not_allowed' }],
            `The capability profile belongs to team "${profile.team}", not to "${body.team}".`,
          );
        }
        const row = await insertAccessRequest(tx, {
          id: newId('req', at.getTime()),
          account_id: accountId,
          agent_id: agent.id,
          profile_id: profile.id,
          team: body.team,
          purpose: body.purpose,
          ...scoreColumns(scoreAccessRequest({ agent, profile }), ACCESS_SCORE, at),
          created_at: at,
        });
        await emit(tx, { accountId, type: 'request.received', data: { request_id: row.id, agent_id: agent.id }, at });
        await emit(tx, {
          accountId,
          type: 'request.scored',
          data: { request_id: row.id, agent_id: agent.id, score: row.score },
          at,
        });
        return toAccessRequest(row);
      });
    },

    async get(accountId: string, id: string): Promise<AccessRequest> {
      return toAccessRequest(await accessRequestRepository.find(db, accountId, id));
    },

    async score(accountId: string, id: string): Promise<Score> {
      return toScore(await accessRequestRepository.find(db, accountId, id));
    },

    /** Scores the request again with the agent and profile as they are now (after changes to either). */
    rescore(accountId: string, id: string): Promise<Score> {
      const at = now();
      return inTransaction(db, async (tx) =>
        toScore(
          await rescoreUnderLock(tx, accessRequestRepository, {
            accountId,
            id,
            // The agent and the profile as they are now, asked of their owners.
            load: async (tx, requestId) => {
              const { agent_id, profile_id } = await scoredOn(tx, requestId);
              return {
                agent: await agentRepository.find(tx, accountId, agent_id),
                profile: await capabilityProfileRepository.find(tx, accountId, profile_id),
              };
            },
            explain: ({ agent, profile }) => scoreAccessRequest({ agent, profile }),
            reading: ACCESS_SCORE,
            at,
            announce: (row) =>
              emit(tx, {
                accountId,
                type: 'request.scored',
                data: { request_id: id, agent_id: row.agent_id, score: row.score },
                at,
              }),
          }),
        ),
      );
    },

    /** Best score first (then newest), optionally for one agent and/or one team. */
    list(
      accountId: string,
      { agent_id, team, limit, cursor }: { limit: number; cursor?: string; agent_id?: string; team?: string },
    ) {
      return scoredPage(db, accessRequestRepository, accountId, {
        cursors: scoredCursors,
        cursor,
        limit,
        filters: { agent_id, team },
        map: toAccessRequest,
      });
    },
  };
}
