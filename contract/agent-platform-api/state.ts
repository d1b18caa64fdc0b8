// What the agent-platform scenarios hand on to each other.
export interface AgentState {
  agentId: string;
  otherAgentId: string;
  profileId: string;
}

export const newAgentState = (): AgentState => ({}) as AgentState;

/** In the future, at whole hours, UTC. */
export const hoursFromNow = (hours: number) =>
  new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + hours * 3_600_000).toISOString();

/** The month before this one, `YYYY-MM` (closed everywhere by now, unless it is the 1st before 02:00 somewhere). */
export function previousMonth(now = new Date()): { period: string; day: string } {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15, 12));
  return { period: first.toISOString().slice(0, 7), day: first.toISOString() };
}
