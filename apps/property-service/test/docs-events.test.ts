import { expect, it } from 'vitest';
import { PROPERTY_EVENTS } from '../src/events.js';
import { renderEvents } from '../../../scripts/docs/events.js';
import { generatedSection } from '../../../scripts/docs/sections.js';

it('docs/webhooks.md describes every event type of the property-marketing service with its data fields', () => {
  const { committed, expected } = generatedSection('webhooks.md', 'property-events', renderEvents(PROPERTY_EVENTS));
  expect(
    committed,
    'docs/webhooks.md is out of date with src/events.ts; rewrite it with UPDATE_DOCS=1 pnpm test:only apps/property-service/test/docs-events.test.ts',
  ).toBe(expected);
});
