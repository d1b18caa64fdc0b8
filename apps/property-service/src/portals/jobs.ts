import { Type } from '@sinclair/typebox';
import type { Db } from '@platform/db';
import { defineJob, type JobContext, type JobQueue } from '@platform/service';
import { runPortalTransfer, type PortalRunContext } from './run.js';
import { portalScheduleSql } from './schedule-sql.js';

/** Channels one sweep runs at most (one after the other: each is one connection to its portal). */
const CHANNELS_PER_SWEEP = 200;

/** The run's context from the worker's; a worker without the secret box cannot read a portal's secret. */
function runContext(context: JobContext): PortalRunContext {
  if (!context.secrets || !context.targets)
    throw new Error(
      "Portal transfers need the deployment's secret key: let the worker run them (pnpm start or the worker process).",
    );
  return {
    db: context.db,
    now: context.now,
    storage: context.storage,
    secrets: context.secrets,
    targets: context.targets,
  };
}

export const PORTAL_TRANSFER_JOB = defineJob({
  name: 'portal-transfer',
  description:
    "Sends a portal channel's changes (or all its live listings, for a full transfer) as one OpenImmo ZIP file to the portal's import account, if the channel is due. Run by the worker only (it decrypts the account's secret with WEBHOOK_SECRET_KEY, which the CLI does not hold).",
  payload: Type.Object({ channel_id: Type.String() }, { additionalProperties: false }),
  retry: { attempts: 1, backoffMs: 0 },
  run: async (context, { channel_id }) => ({
    channel_id,
    ...(await runPortalTransfer(runContext(context), channel_id)),
  }),
});

export const SWEEP_PORTALS_JOB = defineJob({
  name: 'sweep-portals',
  description: `Runs the transfers of every portal channel that is due (a listing published, changed or withdrawn on it, a retry's pause over, a full transfer asked for), up to ${CHANNELS_PER_SWEEP} channels a minute (a channel with nothing to send costs two small queries); the worker only, like portal-transfer.`,
  payload: Type.Object({}, { additionalProperties: false }),
  schedule: { pattern: '* * * * *', tz: 'UTC' },
  retry: { attempts: 1, backoffMs: 0 },
  run: async (context) => {
    const run = runContext(context);
    const due = await portalScheduleSql.due(context.db, context.now, CHANNELS_PER_SWEEP);
    const outcomes: Record<string, number> = {};
    const broken: string[] = [];
    const started = Date.now();
    for (const channelId of due) {
      // Each channel on the clock of its own turn (a long upload before it must not make its lease stale).
      const now = new Date(context.now.getTime() + (Date.now() - started));
      try {
        const { outcome } = await runPortalTransfer({ ...run, now }, channelId);
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      } catch {
        broken.push(channelId); // its lease is given back; the others go on
      }
    }
    return {
      transferred: outcomes.transferred ?? 0,
      failed: outcomes.failed ?? 0,
      halted: outcomes.halted ?? 0,
      broken_channels: broken,
    };
  },
});

/** Puts a channel's transfer on the worker's queue now (a retransfer or changed settings). */
export const enqueuePortalTransfer = (jobs: JobQueue, channelId: string, at: Date) =>
  jobs.enqueue(PORTAL_TRANSFER_JOB, { channel_id: channelId }, `portal-transfer-${channelId}-${at.getTime()}`);

/** Puts every portal channel of the account on the worker's queue now (a property archived); never throws. */
export async function enqueueAccountTransfers(jobs: JobQueue, db: Db, accountId: string, at: Date): Promise<void> {
  for (const channelId of await portalScheduleSql.ofAccount(db, accountId))
    await enqueuePortalTransfer(jobs, channelId, at).catch(() => {}); // the sweeper sends it within a minute
}
