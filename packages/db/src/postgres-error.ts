/** A PostgreSQL error as the driver reported it: its SQLSTATE and its text (with the constraint's name, when one is named). */
export interface PostgresError {
  code: string;
  text: string;
}

/**
 * The PostgreSQL error beneath Prisma's wrapper (whose own codes look like P2010), wherever the
 * driver adapter put it: `cause`, `meta`, `driverAdapterError`, `error`.
 */
export function postgresError(error: unknown): PostgresError | undefined {
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number): PostgresError | undefined => {
    if (value === null || typeof value !== 'object' || seen.has(value) || depth > 6) return undefined;
    seen.add(value);
    const record = value as Record<string, unknown>;
    // The driver's error lies deepest: look there first.
    for (const key of ['cause', 'meta', 'driverAdapterError', 'error']) {
      const found = visit(record[key], depth + 1);
      if (found) return found;
    }
    const code = record.code ?? record.originalCode;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !/^P\d{4}$/.test(code)) {
      const text = [record.constraint, record.message, record.originalMessage]
        .filter((v) => typeof v === 'string')
        .join(' ');
      return { code, text: typeof record.constraint === 'string' ? `"${record.constraint}" ${text}` : text };
    }
    return undefined;
  };
  return visit(error, 0);
}

/** A unique constraint refused the write (Prisma's P2002, or PostgreSQL's 23505 beneath a raw query). */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'P2002' || postgresError(error)?.code === '23505';
}
