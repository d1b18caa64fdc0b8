import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventEmitter } from '@platform/webhooks';
import { createTenant, createTestDatabase, type Tenant, type TestDatabase } from '@platform/testkit';
import { propertyDescriptor } from '../src/descriptor.js';

let db: TestDatabase;
let tenant: Tenant;
beforeAll(async () => {
  db = await createTestDatabase();
  tenant = await createTenant(db.prisma, { service: propertyDescriptor });
});
afterAll(() => db.drop());

const emit = eventEmitter(propertyDescriptor.id, propertyDescriptor.events);
const at = new Date('2026-11-23T12:00:00Z');

describe('the typed event catalogue', () => {
  it('writes an event of the catalogue into the outbox as the delivery body', async () => {
    const id = await db.prisma.$transaction((tx) =>
      emit(tx, {
        accountId: tenant.accountId,
        type: 'property.updated',
        data: { property_id: 'prop_1', changed_fields: ['title'] },
        at,
      }),
    );
    const row = await db.prisma.outboxEvent.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ service: 'property', type: 'property.updated', account_id: tenant.accountId });
    expect(JSON.parse(row.payload)).toEqual({
      id,
      type: 'property.updated',
      created_at: at.toISOString(),
      data: { property_id: 'prop_1', changed_fields: ['title'] },
    });
  });

  // `pnpm test` typechecks this file first: each line under @ts-expect-error must fail to compile,
  // or the unused directive is itself an error. The calls never run.
  it('refuses a misspelt type or a wrong payload at compile time', () => {
    const compileOnly = (tx: Parameters<typeof emit>[0]) => [
      emit(tx, {
        accountId: 'acct',
        // @ts-expect-error: no such event type
        type: 'property.craeted',
        data: { property_id: 'p', status: 'draft', type: 'house' },
        at,
      }),
      // @ts-expect-error: `changed_fields` is missing from the data of property.updated
      emit(tx, { accountId: 'acct', type: 'property.updated', data: { property_id: 'p' }, at }),
      // @ts-expect-error: `status` of property.archived is the literal 'archived'
      emit(tx, { accountId: 'acct', type: 'property.archived', data: { property_id: 'p', status: 'active' }, at }),
      emit(tx, {
        accountId: 'acct',
        type: 'inquiry.scored',
        // @ts-expect-error: `score` must be a number
        data: { inquiry_id: 'i', property_id: 'p', score: 'high' },
        at,
      }),
      emit(tx, {
        accountId: 'acct',
        type: 'channel.feed_token_rotated',
        // @ts-expect-error: a feed token is never part of an event, not even the rotation's
        data: { channel_id: 'c', name: 'Website', type: 'website', rotated_at: at.toISOString(), feed_token: 't' },
        at,
      }),
    ];
    expect(compileOnly).toBeTypeOf('function');
  });
});
