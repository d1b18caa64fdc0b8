import { Type } from '@sinclair/typebox';
import { defineJob, type JobContext, type JobQueue } from '@platform/service';
import { runPortalTransfer, type PortalRunContext } from './run.js';
import { portalScheduleSql } from './schedule-sql.js';

/** Channels one sweep runs at most (one after the other: each is one connection to its portal). */
const CHANNELS_PER_SWEEP = 20;

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
    "Sends a portal channel's changes (or all its live listings, for a full transfer) as one OpenImmo ZIP file to the portal's import account, if the channel is due.",
  payload: Type.Object({ channel_id: Type.String() }, { additionalProperties: false }),
  retry: { attempts: 1, backoffMs: 0 },
  run: async (context, { channel_id }) => ({
    channel_id,
    ...(await runPortalTransfer(runContext(context), channel_id)),
  }),
});

export const SWEEP_PORTALS_JOB = defineJob({
  name: 'sweep-portals',
  description: `Runs the transfers of every portal channel that is due (a listing published, changed or withdrawn on it, a retry's pause over, a full transfer asked for), up to ${CHANNELS_PER_SWEEP} channels a minute.`,
  payload: Type.Object({}, { additionalProperties: false }),
  schedule: { pattern: '* * * * *', tz: 'UTC' },
  retry: { attempts: 1, backoffMs: 0 },
  run: async (context) => {
    const run = runContext(context);
    const due = await portalScheduleSql.due(context.db, context.now, CHANNELS_PER_SWEEP);
    const outcomes: Record<string, number> = {};
    for (const channelId of due) {
      const { outcome } = await runPortalTransfer(run, channelId);
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
    return { transferred: outcomes.transferred ?? 0, failed: outcomes.failed ?? 0 };
  },
});

/** Puts a channel's transfer on the worker's queue now (a retransfer or changed settings). */
export const enqueuePortalTransfer = (jobs: JobQueue, channelId: string, at: Date) =>
  jobs.enqueue(PORTAL_TRANSFER_JOB, { channel_id: channelId }, `portal-transfer-${channelId}-${at.getTime()}`);
