import type { Db, Prisma } from '@platform/db';

export type PortalScheduleRow = Prisma.PortalScheduleGetPayload<object>;

/** How long one transfer run holds a channel without renewing; a run renews it while it uploads. */
export const TRANSFER_LEASE_MS = 10 * 60_000;

/** Pauses after the 1st … 5th failure in a row, as the webhooks retry; the 6th failure halts the channel. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000] as const;

/** A run's hold on its channel: its writes count only while the channel has not been leased or restarted since. */
export interface Fence {
  channelId: string;
  sequence: number;
  generation: number;
}

/** The transfer schedules of portal channels: the only place `portal_schedules` is queried. */
export const portalScheduleSql = {
  /**
   * A full transfer from now on, failures forgotten, a halt lifted, any run in flight fenced out:
   * the channel's import account was created or changed, or its owner asked for a retransfer.
   */
  async restart(tx: Db, key: { accountId: string; channelId: string; at: Date }): Promise<void> {
    const columns = {
      full_requested: true,
      attempts: 0,
      next_attempt_at: key.at,
      halted_reason: null,
      lease_until: null,
      updated_at: key.at,
    };
    await tx.portalSchedule.upsert({
      where: { channel_id: key.channelId },
      create: { channel_id: key.channelId, account_id: key.accountId, ...columns },
      update: { ...columns, generation: { increment: 1 } },
    });
  },

  /**
   * Takes the channel for one run if it is due, not halted and no other run holds it; null otherwise.
   * Its turn moves to now, so that the sweeps take the channels in turns.
   */
  async lease(db: Db, channelId: string, now: Date): Promise<PortalScheduleRow | null> {
    const rows = await db.$queryRaw<PortalScheduleRow[]>`
      UPDATE portal_schedules
      SET lease_until = ${new Date(now.getTime() + TRANSFER_LEASE_MS)}, sequence = sequence + 1, next_attempt_at = ${now}
      WHERE channel_id = ${channelId} AND halted_reason IS NULL AND next_attempt_at <= ${now}
        AND (lease_until IS NULL OR lease_until < ${now})
      RETURNING *`;
    return rows[0] ?? null;
  },

  /** Keeps the lease while the run is still working (an upload may take longer than the lease). */
  async renew(db: Db, fence: Fence, now: Date): Promise<void> {
    await db.portalSchedule.updateMany({
      where: { channel_id: fence.channelId, sequence: fence.sequence },
      data: { lease_until: new Date(now.getTime() + TRANSFER_LEASE_MS) },
    });
  },

  /** The run ended well: no failure in a row; the full transfer done, unless one was asked for since. */
  async succeeded(db: Db, fence: Fence, wasFull: boolean, now: Date): Promise<void> {
    await db.portalSchedule.updateMany({
      where: { channel_id: fence.channelId, sequence: fence.sequence },
      data: { attempts: 0, lease_until: null, updated_at: now },
    });
    if (wasFull)
      await db.portalSchedule.updateMany({
        where: { channel_id: fence.channelId, sequence: fence.sequence, generation: fence.generation },
        data: { full_requested: false },
      });
  },

  /** The run failed: retried after the next pause, or halted (`halted` set) until a restart; nothing if fenced out. */
  async failed(
    db: Db,
    fence: Fence,
    outcome: { attempts: number; nextAttemptAt: Date | null; halted: string | null },
    now: Date,
  ): Promise<void> {
    await db.portalSchedule.updateMany({
      where: { channel_id: fence.channelId, sequence: fence.sequence, generation: fence.generation },
      data: {
        attempts: outcome.attempts,
        next_attempt_at: outcome.nextAttemptAt ?? now,
        halted_reason: outcome.halted,
        lease_until: null,
        updated_at: now,
      },
    });
  },

  /** Gives the lease back without a transfer (nothing to send, or the run broke before sending). */
  async release(db: Db, fence: Fence): Promise<void> {
    await db.portalSchedule.updateMany({
      where: { channel_id: fence.channelId, sequence: fence.sequence },
      data: { lease_until: null },
    });
  },

  /** Channels due for a run, the longest waiting first. */
  async due(db: Db, now: Date, limit: number): Promise<string[]> {
    const rows = await db.portalSchedule.findMany({
      where: {
        halted_reason: null,
        next_attempt_at: { lte: now },
        OR: [{ lease_until: null }, { lease_until: { lt: now } }],
      },
      orderBy: { next_attempt_at: 'asc' },
      take: limit,
      select: { channel_id: true },
    });
    return rows.map((row) => row.channel_id);
  },

  /** The account's portal channels. */
  async ofAccount(db: Db, accountId: string): Promise<string[]> {
    const rows = await db.portalSchedule.findMany({ where: { account_id: accountId }, select: { channel_id: true } });
    return rows.map((row) => row.channel_id);
  },

  find(db: Db, channelId: string): Promise<PortalScheduleRow | null> {
    return db.portalSchedule.findUnique({ where: { channel_id: channelId } });
  },
};
