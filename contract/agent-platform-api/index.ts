// The success scenarios of the agent-platform-api document: each module registers its describe blocks.
import type { ContractRun } from '../harness.js';

/** Event types the scenarios cause; the suite fails when one of them is not delivered. */
export const AGENT_PLATFORM_EVENTS: readonly string[] = [];

export function describeAgentPlatformScenarios(run: ContractRun): void {
  void run;
}
