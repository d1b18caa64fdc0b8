/**
 * What of an unexpected error may be logged: its class, its code (`P2002`, `ECONNREFUSED`, ...)
 * and where it was thrown — never its message. Database errors quote the arguments of the
 * failed call in their message (a prospect's e-mail, say), and logs must not hold personal data.
 */
export interface ErrorSummary {
  type: string;
  code?: string;
  /** The stack frames, without the message line. */
  at?: string[];
  cause?: ErrorSummary;
}

export function summariseError(error: unknown, depth = 0): ErrorSummary {
  if (!(error instanceof Error)) return { type: typeof error };
  const code = (error as { code?: unknown }).code;
  const frames = error.stack
    ?.split('\n')
    .filter((line) => /^\s+at /.test(line))
    .slice(0, 8)
    .map((line) => line.trim());
  const cause = (error as { cause?: unknown }).cause;
  return {
    type: error.constructor?.name || error.name,
    ...(typeof code === 'string' || typeof code === 'number' ? { code: String(code) } : {}),
    ...(frames && frames.length > 0 ? { at: frames } : {}),
    ...(cause !== undefined && depth < 3 ? { cause: summariseError(cause, depth + 1) } : {}),
  };
}
