// The success scenarios of the leads-api document: each module registers its describe blocks.
import type { ContractRun } from '../harness.js';

/** Event types the scenarios cause; the suite fails when one of them is not delivered. */
export const LEADS_EVENTS: readonly string[] = [];

export function describeLeadsScenarios(run: ContractRun): void {
  void run;
}
