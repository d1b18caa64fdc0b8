import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@platform/testkit';

// The services check that a reference belongs to the caller's account; the schema makes the
// database refuse it too (composite foreign keys on (id, account_id)).
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.query(`INSERT INTO accounts (id, name) VALUES ('acct_a', 'A'), ('acct_b', 'B')`);
  await db.query(
    `INSERT INTO properties (id, account_id, type, title, address_postal_code, address_city) VALUES ('prop_b', 'acct_b', 'house', 'B', '10115', 'Berlin')`,
  );
  await db.query(`INSERT INTO prospects (id, account_id, last_name, email, last_activity_at, retention_until, created_at, updated_at)
                  VALUES ('int_a', 'acct_a', 'A', 'a@example.de', now(), current_date, now(), now()), ('int_b', 'acct_b', 'B', 'b@example.de', now(), current_date, now(), now())`);
  await db.query(`INSERT INTO agent_deployments (id, account_id, name, owning_team, capabilities, chargeback_amount_cents, chargeback_unit)
                  VALUES ('agt_b', 'acct_b', 'B', 'T', '{}', 1, 'per_request')`);
  await db.query(`INSERT INTO capability_profiles (id, account_id, team, name, required_capabilities, data_classification, budget_monthly_cents, usage_quantity, usage_unit)
                  VALUES ('cap_a', 'acct_a', 'T', 'A', '{}', 'internal', 1, 1, 'per_request'), ('cap_b', 'acct_b', 'T', 'B', '{}', 'internal', 1, 1, 'per_request')`);
});
afterAll(() => db.drop());

const refused = (sql: string) => expect(db.query(sql)).rejects.toMatchObject({ code: '23503' });
const inquiry = (account: string, property: string, prospect: string) =>
  `INSERT INTO inquiries (id, account_id, property_id, prospect_id, score, weights_version, score_details, scored_at)
   VALUES ('anf_${account}_${property}_${prospect}', '${account}', '${property}', '${prospect}', 0, 'v', '{}', now())`;
const request = (account: string, agent: string, profile: string) =>
  `INSERT INTO access_requests (id, account_id, agent_id, profile_id, team, purpose, score, weights_version, score_details, scored_at)
   VALUES ('req_${account}_${agent}_${profile}', '${account}', '${agent}', '${profile}', 'T', 'p', 0, 'v', '{}', now())`;

describe('references across accounts', () => {
  it('an inquiry cannot join a prospect of one account to a property of another', async () => {
    await refused(inquiry('acct_a', 'prop_b', 'int_a'));
    await refused(inquiry('acct_b', 'prop_b', 'int_a'));
    await db.query(inquiry('acct_b', 'prop_b', 'int_b'));
  });

  it('an access request cannot use an agent or a profile of another account', async () => {
    await refused(request('acct_a', 'agt_b', 'cap_a'));
    await refused(request('acct_b', 'agt_b', 'cap_a'));
    await db.query(request('acct_b', 'agt_b', 'cap_b'));
  });
});
