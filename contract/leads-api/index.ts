// The success scenarios of the leads API.
import type { ContractRun } from '../harness.js';
import { describeLeadsEvents } from '../shell/events.js';
import { describeDataSubjectRights } from './data-subject-rights.js';
import { describePortalInquiries } from './portal-inquiries.js';
import { describeProspectsAndInquiries } from './prospects-and-inquiries.js';

/** Event types the scenarios cause; the suite fails when one of them is not delivered. */
export const LEADS_EVENTS: readonly string[] = [
  'inquiry.received',
  'inquiry.scored',
  'consent.withdrawn',
  'prospect.restricted',
  'prospect.restriction_lifted',
  'prospect.objected',
];

export function describeLeadsScenarios(run: ContractRun): void {
  describeProspectsAndInquiries(run);
  describePortalInquiries(run);
  describeDataSubjectRights(run);
  describeLeadsEvents(run);
}
