import { validationError } from '@platform/http';

/** A log's `von` (inclusive) and `bis` (exclusive) filter as times; either may be open. */
export interface LogTimeRange {
  from?: Date;
  to?: Date;
}

/** The `von`/`bis` query of a log (Löschprotokoll, Auskunftsprotokoll); 422 on `bis` when it is not after `von`. */
export function logTimeRange({ von, bis }: { von?: string; bis?: string }): LogTimeRange {
  const from = von === undefined ? undefined : new Date(von);
  const to = bis === undefined ? undefined : new Date(bis);
  if (from && to && from >= to)
    throw validationError(
      [{ field: 'bis', reason: 'out_of_range' }],
      '`bis` must be after `von`.',
      '`bis` muss nach `von` liegen.',
    );
  return { from, to };
}

/** The rows created within the range: a Prisma `where` fragment. */
export const createdWithin = ({ from, to }: LogTimeRange) => ({
  created_at: { ...(from && { gte: from }), ...(to && { lt: to }) },
});

/** The range in a cursor's scope: a cursor of one range is refused for another. */
export const rangeScope = ({ from, to }: LogTimeRange) => `${from?.toISOString() ?? ''}:${to?.toISOString() ?? ''}`;
