/** One rate-limited request of the failover test: when it started, its status, its RateLimit-Remaining (none: not counted). */
export interface Probe {
  at: number;
  status: number;
  remaining: number | undefined;
}

/** The figures of a failover run, and one line of them for the test's output. */
export function failoverReport(run: {
  killed: { at: number };
  promoted: { at: number };
  counting: { at: number };
  probes: Probe[];
  accepted: string[];
  acceptedAtKill: number;
  refused: number[];
  delivered: Map<string, number>;
}) {
  const seconds = (at: number) => ((at - run.killed.at) / 1000).toFixed(1);
  const uncounted = run.probes.filter((p) => p.at > run.killed.at && p.remaining === undefined).length;
  const duplicates = [...run.delivered.values()].reduce((sum, count) => sum + count - 1, 0);
  const text = [
    `failover: replica promoted ${seconds(run.promoted.at)} s after the primary was killed`,
    `rate limit counting again after ${seconds(run.counting.at)} s (${uncounted} requests passed uncounted)`,
    `${run.accepted.length} events accepted (${run.accepted.length - run.acceptedAtKill} after the kill), ${run.refused.length} writes refused (${[...new Set(run.refused)].join(', ') || 'none'})`,
    `${run.delivered.size} delivered, ${duplicates} delivered more than once`,
  ].join('; ');
  return { text, duplicates, accepted: run.accepted.length };
}
