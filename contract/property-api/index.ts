// The success scenarios of the property API and the public feeds, in the order a customer goes.
import type { ContractRun } from '../harness.js';
import { describeListings } from './listings.js';
import { describeMoney } from './money.js';
import { describePortals } from './portals.js';
import { describeProperties } from './properties.js';
import { describeScheduling } from './scheduling.js';
import { newState } from './state.js';
import { describeRedelivery } from '../shell/redelivery.js';
import { describeWebhooksAndKeys } from '../shell/webhooks-and-keys.js';
import { describeKeyRoll } from '../shell/key-roll.js';
import { describeEvents } from '../shell/events.js';

/** Event types the scenarios cause; the suite fails when one of them is not delivered. */
export const PROPERTY_EVENTS: readonly string[] = [
  'property.created',
  'property.updated',
  'property.archived',
  'listing.completed',
  'listing.published',
  'portal_transfer.succeeded',
  'inquiry.received',
  'appointment.confirmed',
  'appointment.cancelled',
  'settlement.created',
  'invoice.credited',
];

export function describePropertyScenarios(run: ContractRun): void {
  const state = newState();
  describeProperties(run, state);
  describeListings(run, state);
  describePortals(run, state);
  describeScheduling(run, state);
  describeMoney(run, state);
  describeWebhooksAndKeys(run);
  describeKeyRoll(run, 'property', 'properties:read');
  describeRedelivery(run);
  describeEvents(run, 'property');
}
