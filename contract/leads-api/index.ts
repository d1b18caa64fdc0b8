// The success scenarios of the leads API.
import type { ContractRun } from '../harness.js';
import { describeLeadsEvents } from '../shell/events.js';
import { describeProspectsAndInquiries } from './prospects-and-inquiries.js';

/** Event types the scenarios cause; the suite fails when one of them is not delivered. */
export const LEADS_EVENTS: readonly string[] = ['inquiry.received', 'inquiry.scored'];

export function describeLeadsScenarios(run: ContractRun): void {
  describeProspectsAndInquiries(run);
  describeLeadsEvents(run);
}
