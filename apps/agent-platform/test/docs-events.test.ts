import { expect, it } from 'vitest';
import { AGENT_PLATFORM_EVENTS } from '../src/events.js';
import { renderEvents } from '../../../scripts/docs/events.js';
import { generatedSection } from '../../../scripts/docs/sections.js';

it('docs/webhooks.md describes every event type of the agent platform with its data fields', () => {
  const { committed, expected } = generatedSection(
    'webhooks.md',
    'agent-platform-events',
    renderEvents(AGENT_PLATFORM_EVENTS),
  );
  expect(
    committed,
    'docs/webhooks.md is out of date with src/events.ts; rewrite it with UPDATE_DOCS=1 pnpm test:only apps/agent-platform/test/docs-events.test.ts',
  ).toBe(expected);
});
