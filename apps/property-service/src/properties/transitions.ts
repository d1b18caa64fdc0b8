import type { PropertyStatus } from '@platform/db';
import { defineTransitions, type TransitionTable } from '@platform/resource';
import { propertyModel, propertyRepository, type PropertyRow } from './repository.js';

/**
 * Status changes happen only through these actions (`POST /properties/{id}/<action>`).
 *
 * | action      | from                                 | to       |
 * |-------------|--------------------------------------|----------|
 * | activate    | draft                                | active   |
 * | reserve     | active                               | reserved |
 * | release     | reserved                             | active   |
 * | mark-sold   | active, reserved                     | sold     |
 * | mark-rented | active, reserved                     | rented   |
 * | relist      | rented                               | active   |
 * | archive     | draft, active, reserved, sold, rented | archived |
 * | restore     | archived                             | draft    |
 */
export const PROPERTY_TRANSITIONS = {
  activate: { from: ['draft'], to: 'active', summary: 'Put a draft on the market.' },
  reserve: {
    from: ['active'],
    to: 'reserved',
    summary: 'Reserve an active property for a prospective buyer or tenant.',
  },
  release: { from: ['reserved'], to: 'active', summary: 'Cancel a reservation.' },
  'mark-sold': { from: ['active', 'reserved'], to: 'sold', summary: 'Record the sale.' },
  'mark-rented': { from: ['active', 'reserved'], to: 'rented', summary: 'Record the letting.' },
  relist: { from: ['rented'], to: 'active', summary: 'Offer a rented property again.' },
  archive: {
    from: ['draft', 'active', 'reserved', 'sold', 'rented'],
    to: 'archived',
    summary: 'Take the property off the market.',
  },
  restore: { from: ['archived'], to: 'draft', summary: 'Bring an archived property back as a draft.' },
} as const satisfies TransitionTable<PropertyStatus>;

export type PropertyAction = keyof typeof PROPERTY_TRANSITIONS;

/** Applies an action of the table in the caller's transaction; an illegal one is 409 `invalid_transition`. */
export const transitionProperty = defineTransitions<PropertyRow, PropertyStatus>({
  model: propertyModel,
  table: PROPERTY_TRANSITIONS,
  noun: 'a property',
  notFound: propertyRepository.notFound,
});
