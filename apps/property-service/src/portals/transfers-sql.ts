import type { Db, Prisma } from '@platform/db';
import type { CursorPosition } from '@platform/http';

export type PortalTransferRow = Prisma.PortalTransferGetPayload<object>;

/** The files sent (or tried) to the portals: the only place `portal_transfers` is queried. */
export const portalTransferSql = {
  async start(db: Db, row: Prisma.PortalTransferUncheckedCreateInput): Promise<void> {
    await db.portalTransfer.create({ data: row });
  },

  async finish(
    db: Db,
    id: string,
    outcome: { state: 'transferred' | 'failed'; bytes?: number; reason?: string; at: Date },
  ): Promise<void> {
    await db.portalTransfer.update({
      where: { id },
      data: {
        state: outcome.state,
        bytes: outcome.bytes ?? null,
        reason: outcome.reason ?? null,
        finished_at: outcome.at,
      },
    });
  },

  /** Transfers of runs that ended without writing their outcome (a crash, a lost lease): failed, as interrupted. */
  async interrupted(db: Db, channelId: string, at: Date): Promise<void> {
    await db.portalTransfer.updateMany({
      where: { channel_id: channelId, state: 'pending' },
      data: {
        state: 'failed',
        reason: 'interrupted: the run ended before it could record its outcome',
        finished_at: at,
      },
    });
  },

  /** A channel's transfers, newest first (keyset by start time and id). */
  page(db: Db, channelId: string, limit: number, after?: CursorPosition): Promise<PortalTransferRow[]> {
    return db.portalTransfer.findMany({
      where: {
        channel_id: channelId,
        ...(after
          ? { OR: [{ started_at: { lt: after.createdAt } }, { started_at: after.createdAt, id: { lt: after.id } }] }
          : {}),
      },
      orderBy: [{ started_at: 'desc' }, { id: 'desc' }],
      take: limit + 1,
    });
  },
};
