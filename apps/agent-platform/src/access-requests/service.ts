import type { Prisma, PrismaClient } from '@platform/db';
import { lockOwnRow, newId } from '@platform/db';
import { ApiError, afterScored, notFound, toPage, validationError, type ScoredCursorCodec } from '@platform/http';
import { recordEvent } from '@platform/webhooks';
import { toColumns as profileColumns } from '../capability-profiles/mapping.js';
import { scoreAccessRequest, type Explanation } from './scoring.js';
import type { AccessRequest, AccessRequestInput, Score } from './schemas.js';

export interface AccessRequestServiceDeps {
  db: PrismaClient;
  cursors: ScoredCursorCodec;
  now: () => Date;
}

type Row = Prisma.AccessRequestGetPayload<object>;
type Tx = Prisma.TransactionClient;

const NOT_FOUND_MESSAGE = 'No access request with this id.';

function toAccessRequest(row: Row): AccessRequest {
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

function toScore(row: Row): Score {
  return { request_id: row.id, ...(row.score_details as unknown as Explanation), scored_at: row.scored_at.toISOString() };
}

const scoreColumns = (explanation: Explanation, at: Date) => ({
  score: explanation.total,
  weights_version: explanation.weights_version,
  score_details: explanation as unknown as Prisma.InputJsonValue,
  scored_at: at,
});

export type AccessRequestService = ReturnType<typeof createAccessRequestService>;

/** Access requests: scored on arrival (and again on demand) against the agent and the team's capability profile. */
export function createAccessRequestService({ db, cursors, now }: AccessRequestServiceDeps) {
  const emit = (tx: Tx, accountId: string, type: string, data: Record<string, unknown>, at: Date) => recordEvent(tx, { accountId, service: 'agents', type, data, now: at });

  async function findRow(accountId: string, id: string, tx: Tx | PrismaClient = db): Promise<Row> {
    const row = await tx.accessRequest.findFirst({ where: { id, account_id: accountId } });
    if (!row) throw notFound(NOT_FOUND_MESSAGE);
    return row;
  }

  async function profileFor(tx: Tx, accountId: string, body: AccessRequestInput, at: Date) {
    if (body.profile) {
      return tx.capabilityProfile.create({
        data: { id: newId('cap', at.getTime()), account_id: accountId, ...profileColumns({ ...body.profile, team: body.team }), created_at: at, updated_at: at },
      });
    }
    // FOR SHARE: a concurrent change of the profile's team waits until the request is stored.
    if (!(await lockOwnRow(tx, 'capability_profiles', body.profile_id!, accountId, 'share'))) throw notFound('No capability profile with the profile_id.');
    const profile = await tx.capabilityProfile.findUniqueOrThrow({ where: { id: body.profile_id } });
    if (profile.team !== body.team) {
      throw validationError([{ field: 'team', reason: 'not_allowed' }], `The capability profile belongs to team "${profile.team}", not to "${body.team}".`);
    }
    return profile;
  }

  return {
    async create(accountId: string, body: AccessRequestInput): Promise<AccessRequest> {
      if (body.profile_id === undefined && body.profile === undefined) throw validationError([{ field: 'profile_id', reason: 'missing' }]);
      if (body.profile_id !== undefined && body.profile !== undefined) throw validationError([{ field: 'profile', reason: 'not_allowed' }]);
      const at = now();
      return db.$transaction(async (tx) => {
        // FOR SHARE: a concurrent retire waits until the request is stored (and so is never lost to it).
        if (!(await lockOwnRow(tx, 'agent_deployments', body.agent_id, accountId, 'share'))) throw notFound('No agent with the agent_id.');
        const agent = await tx.agentDeployment.findUniqueOrThrow({ where: { id: body.agent_id } });
        if (agent.status !== 'active') throw new ApiError('conflict', { message: `The agent is ${agent.status}; access cannot be requested.` });
        const profile = await profileFor(tx, accountId, body, at);
        const explanation = scoreAccessRequest({ agent, profile });
        const row = await tx.accessRequest.create({
          data: {
            id: newId('req', at.getTime()),
            account_id: accountId,
            agent_id: agent.id,
            profile_id: profile.id,
            team: body.team,
            purpose: body.purpose,
            ...scoreColumns(explanation, at),
            created_at: at,
          },
        });
        await emit(tx, accountId, 'request.received', { request_id: row.id, agent_id: agent.id }, at);
        await emit(tx, accountId, 'request.scored', { request_id: row.id, agent_id: agent.id, score: row.score }, at);
        return toAccessRequest(row);
      });
    },

    async get(accountId: string, id: string): Promise<AccessRequest> {
      return toAccessRequest(await findRow(accountId, id));
    },

    async score(accountId: string, id: string): Promise<Score> {
      return toScore(await findRow(accountId, id));
    },

    /** Scores the request again with the agent and profile as they are now (after changes to either). */
    async rescore(accountId: string, id: string): Promise<Score> {
      return db.$transaction(async (tx) => {
        if (!(await lockOwnRow(tx, 'access_requests', id, accountId))) throw notFound(NOT_FOUND_MESSAGE);
        const row = await tx.accessRequest.findUniqueOrThrow({ where: { id }, include: { agent: true, profile: true } });
        const at = now();
        const explanation = scoreAccessRequest({ agent: row.agent, profile: row.profile });
        const updated = await tx.accessRequest.update({ where: { id }, data: scoreColumns(explanation, at) });
        await emit(tx, accountId, 'request.scored', { request_id: id, agent_id: row.agent_id, score: updated.score }, at);
        return toScore(updated);
      });
    },

    /** Best score first (then newest), optionally for one agent and/or one team. */
    async list(accountId: string, query: { limit: number; cursor?: string; agent_id?: string; team?: string }) {
      const scope = `access-requests:${JSON.stringify([accountId, query.agent_id ?? null, query.team ?? null])}`;
      const position = query.cursor ? cursors.decode(query.cursor, scope) : undefined;
      const rows = await db.accessRequest.findMany({
        where: { account_id: accountId, agent_id: query.agent_id, team: query.team, ...afterScored(position) },
        orderBy: [{ score: 'desc' }, { created_at: 'desc' }, { id: 'desc' }],
        take: query.limit + 1,
      });
      const page = toPage(rows, query.limit, (p) => cursors.encode({ score: rows.find((r) => r.id === p.id)!.score, createdAt: p.createdAt, id: p.id }, scope));
      return { data: page.items.map(toAccessRequest), page: { next_cursor: page.nextCursor, has_more: page.hasMore } };
    },
  };
}
