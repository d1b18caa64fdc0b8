import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@platform/testkit';
import { createFilesystemStorage, type BlobStorage } from '@platform/storage';
import { blobInUse, blobRecords, blobTables, claimBlob, forgetBlobTables, releaseBlob } from '../src/index.js';

let db: TestDatabase;
let root: string;
let storage: BlobStorage;
beforeAll(async () => {
  db = await createTestDatabase();
  root = await mkdtemp(join(tmpdir(), 'blobs-'));
  storage = createFilesystemStorage({ root });
});
afterAll(async () => {
  await db.drop();
  await rm(root, { recursive: true, force: true });
});

describe('blob references', () => {
  it('finds every table that records a blob, also one added later (each table with a sha256 column)', async () => {
    expect(await blobTables(db.prisma)).toEqual([
      'agent_artifacts',
      'catalog_entries',
      'internal_invoices',
      'invoices',
      'listing_media',
      'listings',
      'media_renditions',
      'property_media',
    ]);
    await db.prisma.$executeRawUnsafe(
      'CREATE TABLE later_files (id text PRIMARY KEY, sha256 text NOT NULL, size int NOT NULL)',
    );
    await db.prisma.$executeRawUnsafe(`INSERT INTO later_files VALUES ('f1', '${'a'.repeat(64)}', 1)`);
    forgetBlobTables(); // as after a migration
    expect(await blobTables(db.prisma)).toContain('later_files');
    expect(await blobInUse(db.prisma, 'a'.repeat(64))).toBe(true);
    await db.prisma.$executeRawUnsafe('DROP TABLE later_files');
    forgetBlobTables();
  });

  it('keeps a blob while a record of either table uses it, and removes it with the last one', async () => {
    const prisma = db.prisma;
    await prisma.account.create({ data: { id: 'acct_blobs', name: 'Blobs' } });
    await prisma.property.create({
      data: {
        id: 'prop_b',
        account_id: 'acct_blobs',
        type: 'house',
        title: 'House',
        address_postal_code: '10115',
        address_city: 'Berlin',
      },
    });
    await prisma.agentDeployment.create({
      data: {
        id: 'agt_b',
        account_id: 'acct_blobs',
        name: 'Agent',
        owning_team: 'Team',
        capabilities: [],
        chargeback_amount_cents: 1,
        chargeback_unit: 'per_request',
      },
    });
    const blob = await storage.put(Readable.from([Buffer.from('shared content')]));
    const common = {
      account_id: 'acct_blobs',
      content_type: 'application/pdf',
      size: blob.size,
      sha256: blob.sha256,
      filename: 'a.pdf',
    };
    await prisma.$transaction(async (tx) => {
      await claimBlob(tx, storage, blob.key);
      await tx.propertyMedia.create({
        data: { ...common, id: 'med_b', property_id: 'prop_b', kind: 'document', position: 0 },
      });
    });
    await prisma.$transaction(async (tx) => {
      await claimBlob(tx, storage, blob.key);
      await tx.agentArtifact.create({ data: { ...common, id: 'art_b', agent_id: 'agt_b', kind: 'other' } });
    });
    expect((await blobRecords(prisma)).map((r) => `${r.table}:${r.id}`)).toEqual([
      'agent_artifacts:art_b',
      'property_media:med_b',
    ]);

    await prisma.propertyMedia.delete({ where: { id: 'med_b' } });
    expect(await prisma.$transaction((tx) => releaseBlob(tx, storage, blob.key))).toBe(false);
    expect(await storage.exists(blob.key)).toBe(true);
    await prisma.agentArtifact.delete({ where: { id: 'art_b' } });
    expect(await prisma.$transaction((tx) => releaseBlob(tx, storage, blob.key))).toBe(true);
    expect(await storage.exists(blob.key)).toBe(false);
    // A record cannot be written for content that is gone.
    await expect(prisma.$transaction((tx) => claimBlob(tx, storage, blob.key))).rejects.toThrow(/was removed/);
  });
});
