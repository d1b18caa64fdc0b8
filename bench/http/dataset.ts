// The data of the HTTP benchmark: accounts with properties and agents made by generate_series (a
// million rows load in seconds), an application per service and account, and one API key per
// service for the first account, the one the load is sent as.
import pg from 'pg';
import { createApiKey } from '@platform/auth';
import { createPrisma } from '@platform/db';
import { agentPlatformService } from '@platform/agent-platform';
import { propertyService } from '@platform/property-service';

export interface DatasetSize {
  accounts: number;
  /** Properties per account, and as many agents. */
  rowsPerAccount: number;
}

export interface Dataset {
  accountId: string;
  propertyKey: string;
  agentKey: string;
  /** Ids of the first account's records the requests pick from (a sample, in random order). */
  propertyIds: string[];
  agentIds: string[];
}

const SAMPLE = 2_000;
const PROPERTY_STATUSES = ['draft', 'active', 'reserved', 'sold', 'rented'];

/** Fills an empty migrated database; the keys are hashed with `pepper`, as the services will. */
export async function buildDataset(url: string, size: DatasetSize, pepper: string): Promise<Dataset> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO accounts (id, name) SELECT 'acct_bench_' || a, 'bench ' || a FROM generate_series(1, $1) a`,
      [size.accounts],
    );
    await client.query(
      `INSERT INTO applications (id, account_id, service, name, rate_limit_per_minute)
       SELECT 'app_' || s || '_' || a, 'acct_bench_' || a, s::"Service", 'bench', 1000000
       FROM generate_series(1, $1) a, unnest(ARRAY['property', 'agent_platform']) s`,
      [size.accounts],
    );
    // Created one second apart per account and spread over the statuses, like a long-lived account.
    await client.query(
      `INSERT INTO properties (id, account_id, status, type, title, address_postal_code, address_city, living_area_sqm, rooms,
                               purchase_price_eur, description, created_at, updated_at)
       SELECT 'prop_' || lpad(a::text, 3, '0') || '_' || lpad(n::text, 8, '0'), 'acct_bench_' || a,
              (ARRAY[${PROPERTY_STATUSES.map((s) => `'${s}'`).join(',')}])[1 + n % ${PROPERTY_STATUSES.length}]::"PropertyStatus",
              (ARRAY['apartment','house','land','commercial','parking'])[1 + n % 5]::"PropertyType",
              'Bench property ' || n, lpad((10000 + n % 89999)::text, 5, '0'), 'Berlin', 40 + n % 160, 1 + n % 6,
              100000 + n % 900000, 'A property of the HTTP benchmark, with a description of ordinary length.',
              timestamptz '2024-01-01' + n * interval '1 second', timestamptz '2024-01-01' + n * interval '1 second'
       FROM generate_series(1, $1) a, generate_series(1, $2) n`,
      [size.accounts, size.rowsPerAccount],
    );
    await client.query(
      `INSERT INTO agent_deployments (id, account_id, status, name, description, owning_team, capabilities,
                                      chargeback_amount_cents, chargeback_unit, created_at, updated_at)
       SELECT 'agent_' || lpad(a::text, 3, '0') || '_' || lpad(n::text, 8, '0'), 'acct_bench_' || a,
              (CASE WHEN n % 10 = 0 THEN 'retired' ELSE 'active' END)::"AgentStatus",
              'Bench agent ' || n, 'An agent of the HTTP benchmark.', 'team-' || (n % 20), ARRAY['summarise', 'translate'],
              1 + n % 500, 'per_request'::"ChargebackUnit",
              timestamptz '2024-01-01' + n * interval '1 second', timestamptz '2024-01-01' + n * interval '1 second'
       FROM generate_series(1, $1) a, generate_series(1, $2) n`,
      [size.accounts, size.rowsPerAccount],
    );
    await client.query('ANALYZE');
    const sample = async (table: string, status: string) =>
      (
        await client.query<{ id: string }>(
          `SELECT id FROM ${table} WHERE account_id = 'acct_bench_1' AND status::text = $2 ORDER BY random() LIMIT $1`,
          [SAMPLE, status],
        )
      ).rows.map((r) => r.id);
    // PATCH may touch any of them: none archived or retired (those refuse changes).
    const propertyIds = await sample('properties', 'active');
    const agentIds = await sample('agent_deployments', 'active');
    const db = createPrisma({ url, maxConnections: 1 });
    try {
      const key = async (service: typeof propertyService.descriptor | typeof agentPlatformService.descriptor) =>
        (
          await createApiKey(db, {
            applicationId: `app_${service.id}_1`,
            service,
            environment: 'sandbox',
            scopes: [...service.scopes],
            pepper,
          })
        ).plaintext;
      return {
        accountId: 'acct_bench_1',
        propertyKey: await key(propertyService.descriptor),
        agentKey: await key(agentPlatformService.descriptor),
        propertyIds,
        agentIds,
      };
    } finally {
      await db.$disconnect();
    }
  } finally {
    await client.end();
  }
}
