import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatBytes, formatChargebackRate, renderCatalogRecord } from '../src/catalog-entries/record.js';
import type { CatalogArtifactSnapshot, CatalogEntrySnapshot } from '../src/catalog-entries/snapshot.js';

const work = mkdtempSync(join(tmpdir(), 'catalog-record-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let files = 0;
function pdftotext(pdf: Buffer): string {
  const file = join(work, `${++files}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
}
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

function artifact(i: number, overrides: Partial<CatalogArtifactSnapshot> = {}): CatalogArtifactSnapshot {
  return {
    id: `art_${i}`,
    kind: 'model_card',
    title: `Model card ${i}`,
    version: `v${i}.0`,
    content_type: 'text/markdown',
    size: 1536 * i,
    sha256: sha256(`artifact ${i}`),
    filename: `model-card-${i}.md`,
    ...overrides,
  };
}

function snapshot(
  overrides: Partial<CatalogEntrySnapshot['agent']> = {},
  artifacts = [
    artifact(1),
    artifact(2, {
      kind: 'evaluation_report',
      title: null,
      version: null,
      filename: 'eval-2026-q1.pdf',
      size: 5 * 1024 * 1024,
    }),
  ],
): CatalogEntrySnapshot {
  return {
    taken_at: '2026-03-01T09:30:00.000Z',
    agent: {
      id: 'agt_123',
      name: 'Invoice Triage Agent',
      description: 'Sorts incoming invoices by cost centre and flags duplicates.',
      owning_team: 'Finance Automation',
      capabilities: ['invoices.read', 'erp:post', 'email_send'],
      chargeback_rate: { amount_cents: 1250, unit: 'per_1k_tokens' },
      data_classification: 'confidential',
      ...overrides,
    },
    artifacts,
  };
}

describe('renderCatalogRecord', () => {
  it('shows the agent and each artifact, every SHA-256 whole on one line', async () => {
    const raw = pdftotext(await renderCatalogRecord(snapshot()));
    const text = raw.replace(/\s+/g, ' ');
    for (const field of [
      'Invoice Triage Agent',
      'Sorts incoming invoices by cost centre and flags duplicates.',
      'Owning team Finance Automation',
      'Data classification Confidential',
      'Chargeback rate €12.50 per 1k tokens',
      'Capabilities invoices.read, erp:post, email_send',
      'Model card 1',
      'v1.0',
      'model-card-1.md',
      '1.5 KiB',
      'Evaluation report',
      'eval-2026-q1.pdf',
      '5.0 MiB',
    ])
      expect(text).toContain(field);
    for (const hash of [sha256('artifact 1'), sha256('artifact 2')]) expect(raw).toContain(hash);
  });

  it('keeps long artifact tables complete across pages', async () => {
    const artifacts = Array.from({ length: 40 }, (_, i) => artifact(i + 1));
    const raw = pdftotext(await renderCatalogRecord(snapshot({}, artifacts)));
    expect(raw.split('\f').filter((page) => page.trim()).length).toBeGreaterThan(1);
    for (const a of artifacts) expect(raw).toContain(a.sha256);
  });

  it('says so when there is no description, capability or artifact', async () => {
    const text = pdftotext(await renderCatalogRecord(snapshot({ description: null, capabilities: [] }, []))).replace(
      /\s+/g,
      ' ',
    );
    expect(text).toContain('No description.');
    expect(text).toContain('Capabilities None');
    expect(text).toContain('No artifacts.');
  });

  it('renders the same snapshot to the same bytes, and another rate to other bytes', async () => {
    const first = await renderCatalogRecord(snapshot());
    expect(sha256(await renderCatalogRecord(snapshot()))).toBe(sha256(first));
    expect(
      sha256(await renderCatalogRecord(snapshot({ chargeback_rate: { amount_cents: 1251, unit: 'per_1k_tokens' } }))),
    ).not.toBe(sha256(first));
  });

  it('formats rates and sizes', () => {
    expect(formatChargebackRate({ amount_cents: 5, unit: 'per_request' })).toBe('€0.05 per request');
    expect(formatChargebackRate({ amount_cents: 123_456_789, unit: 'per_month' })).toBe('€1,234,567.89 per month');
    expect([formatBytes(0), formatBytes(1023), formatBytes(1024), formatBytes(3 * 1024 ** 3)]).toEqual([
      '0 B',
      '1023 B',
      '1.0 KiB',
      '3.0 GiB',
    ]);
  });
});
