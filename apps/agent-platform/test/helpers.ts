import { startTestApp, type TestApp } from '@platform/testkit';
import { buildAgentPlatformApp } from '../src/app.js';
import { agentPlatformDescriptor } from '../src/descriptor.js';

export type AgentPlatformTestContext = TestApp;

/** The agent-platform app on its own database, with two tenants holding every scope. */
export const startAgentPlatformApp = () => startTestApp(agentPlatformDescriptor, buildAgentPlatformApp);

export const validAgent = () => ({
  name: 'Invoice triage',
  owning_team: 'Finance automation',
  capabilities: ['ocr', 'classify:invoice'],
  chargeback_rate: { amount_cents: 120, unit: 'per_1k_tokens' },
});

export const validProfile = () => ({
  team: 'Accounts payable',
  name: 'Invoice intake',
  required_capabilities: ['ocr', 'classify:invoice'],
  data_classification: 'internal',
  // 250 × 120 cents (validAgent's rate) = 30,000 cents a month
  budget: { monthly_limit_cents: 40_000, expected_usage: { quantity: 250, unit: 'per_1k_tokens' } },
});
