// Evaluation sessions, usage with cost estimates and comparables, and the monthly chargeback run
// (started as an operator does, with the CLI) with its settlements and internal invoices.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { unwrap } from '@platform/client';
import { TEST_PEPPER, until } from '@platform/testkit';
import type { ContractRun } from '../harness.js';
import { hoursFromNow, previousMonth, type AgentState } from './state.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export function describeSessionsAndMoney(run: ContractRun, state: AgentState): void {
  const client = () => run.clients.agents;

  describe('evaluation sessions', () => {
    it('books, lists, reads, exports, confirms, reschedules and completes a session; cancels another', async () => {
      const booking = {
        agent_id: state.agentId,
        team: 'legal',
        starts_at: hoursFromNow(24),
        ends_at: hoursFromNow(25),
        evaluator_roles: ['domain_expert', 'security_reviewer'],
      };
      const session = await unwrap(client().POST('/v1/evaluation-sessions', { body: booking }));
      const clash = await client().POST('/v1/evaluation-sessions', { body: booking });
      expect(clash.response.status).toBe(409);
      const path = { params: { path: { sessionId: session.id } } };
      const ids: string[] = [];
      for await (const s of client().evaluationSessions.list()) ids.push(s.id);
      expect(ids).toContain(session.id);
      expect((await unwrap(client().GET('/v1/evaluation-sessions/{sessionId}', path))).id).toBe(session.id);
      expect(
        (await client().GET('/v1/evaluation-sessions/{sessionId}/ics', { ...path, parseAs: 'text' })).data,
      ).toContain('BEGIN:VCALENDAR');
      expect(
        (
          await unwrap(
            client().POST('/v1/evaluation-sessions/{sessionId}/confirm', { ...path, body: { by: 'provider' } }),
          )
        ).status,
      ).toBe('confirmed');
      await unwrap(
        client().POST('/v1/evaluation-sessions/{sessionId}/reschedule', {
          ...path,
          body: { starts_at: hoursFromNow(26), ends_at: hoursFromNow(27) },
        }),
      );
      await unwrap(client().POST('/v1/evaluation-sessions/{sessionId}/confirm', { ...path, body: { by: 'team' } }));
      expect((await unwrap(client().POST('/v1/evaluation-sessions/{sessionId}/complete', path))).status).toBe(
        'completed',
      );
      const other = await unwrap(
        client().POST('/v1/evaluation-sessions', {
          body: {
            agent_id: state.agentId,
            team: 'legal',
            starts_at: hoursFromNow(30),
            ends_at: hoursFromNow(31),
            evaluator_count: 1,
          },
        }),
      );
      const cancelled = await unwrap(
        client().POST('/v1/evaluation-sessions/{sessionId}/cancel', {
          params: { path: { sessionId: other.id } },
          body: { by: 'team', reason: 'team_declined' },
        }),
      );
      expect(cancelled.status).toBe('cancelled');
    });
  });

  describe('usage, cost estimates and comparables', () => {
    it('records usage (a repeated client_id counts as a duplicate), estimates costs and lists comparables', async () => {
      const { day } = previousMonth();
      const records = [1, 2, 3].map((n) => ({
        client_id: `usage-${n}`,
        team: 'legal',
        quantity: 100,
        unit: 'per_request' as const,
        occurred_at: day,
      }));
      const agent = { params: { path: { agentId: state.agentId } } };
      await unwrap(client().POST('/v1/agents/{agentId}/usage', { ...agent, body: { records } }));
      const again = await unwrap(client().POST('/v1/agents/{agentId}/usage', { ...agent, body: { records } }));
      expect(again).toMatchObject({ duplicates: 3 });
      expect(
        (
          await client().GET('/v1/agents/{agentId}/cost-estimate', {
            ...agent,
            params: { ...agent.params, query: { quantity: 1000, unit: 'per_request' } },
          })
        ).response.status,
      ).toBe(200);
      expect(
        (await client().GET('/v1/cost-estimates', { params: { query: { profile_id: state.profileId } } })).response
          .status,
      ).toBe(200);
      expect((await client().GET('/v1/agents/{agentId}/comparables', agent)).response.status).toBe(200);
    });
  });

  describe('chargebacks', () => {
    it('settles last month when an operator runs the job, with a settlement and an internal invoice (PDF) per team', async () => {
      const { period } = previousMonth();
      const env = {
        PATH: process.env.PATH!,
        DATABASE_URL: run.db.url,
        REDIS_URL: run.services.redisUrl, // the services' worker makes the PDFs
        API_KEY_PEPPER: TEST_PEPPER,
        WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
        DATA_DIR: join(process.env.TMPDIR ?? '/tmp', `contract-cli-${randomBytes(4).toString('hex')}`),
      };
      await promisify(execFile)(
        process.execPath,
        [
          '--import',
          'tsx',
          'apps/cli/src/main.ts',
          'jobs',
          'run',
          'chargebacks',
          '--period',
          period,
          '--account',
          run.agents.accountId,
        ],
        { cwd: ROOT, env },
      );
      const settlements: string[] = [];
      for await (const s of client().chargebackSettlements.list()) settlements.push(s.id);
      expect(settlements.length).toBeGreaterThan(0);
      expect(
        (
          await unwrap(
            client().GET('/v1/chargebacks/settlements/{settlementId}', {
              params: { path: { settlementId: settlements[0]! } },
            }),
          )
        ).id,
      ).toBe(settlements[0]);
      const invoices: string[] = [];
      for await (const i of client().internalInvoices.list()) invoices.push(i.id);
      expect(invoices.length).toBeGreaterThan(0);
      const invoice = { params: { path: { invoiceId: invoices[0]! } } };
      expect((await unwrap(client().GET('/v1/internal-invoices/{invoiceId}', invoice))).id).toBe(invoices[0]);
      const pdf = await until(async () => {
        const response = await client().GET('/v1/internal-invoices/{invoiceId}/pdf', {
          ...invoice,
          parseAs: 'arrayBuffer',
        });
        return response.response.status === 200 ? response : undefined;
      }, 30_000);
      expect(pdf.response.headers.get('content-type')).toMatch(/application\/pdf/);
    }, 60_000);
  });
}
