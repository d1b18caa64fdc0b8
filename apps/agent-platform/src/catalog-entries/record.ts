import {
  contentWidth,
  ensureSpace,
  factsTable,
  FONTS,
  heading,
  MUTED,
  paragraph,
  renderPdf,
  renderTask,
  tableRow,
  type PdfDocument,
  type TableCell,
} from '@platform/documents/pdf';
import type { CatalogAgentSnapshot, CatalogArtifactSnapshot, CatalogEntrySnapshot } from './snapshot.js';

/** The catalog record's renderer in the sandbox (`./sandbox.ts` serves it). */
export const RENDER_CATALOG_RECORD = renderTask<CatalogEntrySnapshot>('agent-platform.render-catalog-record');

/**
 * The catalog record of an agent (PDF, English): name, description, owning team, capabilities,
 * data classification, chargeback rate and the artifacts with their full SHA-256. Deterministic:
 * dated by the snapshot, numbers formatted by hand.
 */
export async function renderCatalogRecord(snapshot: CatalogEntrySnapshot): Promise<Buffer> {
  const { agent } = snapshot;
  return renderPdf(
    { title: agent.name, subject: 'Agent catalog record', language: 'en', createdAt: new Date(snapshot.taken_at) },
    (doc) => {
      heading(doc, agent.name, { level: 1 });
      paragraph(doc, `Agent catalog record · ${agent.id}`, { size: 9, color: MUTED });
      heading(doc, 'Overview');
      factsTable(doc, [
        ['Owning team', agent.owning_team],
        ['Data classification', CLASSIFICATION_LABELS[agent.data_classification]],
        ['Chargeback rate', formatChargebackRate(agent.chargeback_rate)],
        ['Capabilities', agent.capabilities.length > 0 ? agent.capabilities.join(', ') : 'None'],
      ]);
      heading(doc, 'Description');
      paragraph(doc, agent.description ?? 'No description.');
      heading(doc, 'Artifacts', { keepWith: 60 });
      if (snapshot.artifacts.length === 0) paragraph(doc, 'No artifacts.');
      else artifactTable(doc, snapshot.artifacts);
    },
  );
}

const CLASSIFICATION_LABELS: Record<CatalogAgentSnapshot['data_classification'], string> = {
  public: 'Public',
  internal: 'Internal',
  confidential: 'Confidential',
  restricted: 'Restricted',
};

const KIND_LABELS: Record<CatalogArtifactSnapshot['kind'], string> = {
  model_card: 'Model card',
  prompt: 'Prompt',
  configuration: 'Configuration',
  evaluation_report: 'Evaluation report',
  other: 'Other',
};

const UNIT_LABELS: Record<CatalogAgentSnapshot['chargeback_rate']['unit'], string> = {
  per_request: 'per request',
  per_1k_tokens: 'per 1k tokens',
  per_hour: 'per hour',
  per_month: 'per month',
};

/** Kind, title, version, filename and size in one row; the full SHA-256 in Courier on the row beneath (it fits on one line). */
function artifactTable(doc: PdfDocument, artifacts: readonly CatalogArtifactSnapshot[]): void {
  const widths = [90, 130, 65, 140];
  const columns = (texts: string[], style: Partial<TableCell> = {}): TableCell[] => [
    ...widths.map((width, i) => ({ ...style, text: texts[i], width })),
    { ...style, text: texts[4], width: contentWidth(doc) - widths.reduce((a, b) => a + b, 0) },
  ];
  tableRow(doc, columns(['Kind', 'Title', 'Version', 'Filename', 'Size'], { font: FONTS.bold, size: 9 }));
  for (const artifact of artifacts) {
    ensureSpace(doc, 45); // the two rows of an artifact stay together
    tableRow(
      doc,
      columns(
        [
          KIND_LABELS[artifact.kind],
          artifact.title ?? '—',
          artifact.version ?? '—',
          artifact.filename,
          formatBytes(artifact.size),
        ],
        { size: 9 },
      ),
      {
        rule: false,
      },
    );
    tableRow(doc, [
      { text: 'SHA-256', width: widths[0], size: 8, color: MUTED },
      { text: artifact.sha256, width: contentWidth(doc) - widths[0], font: FONTS.mono, size: 8 },
    ]);
  }
}

/** `{ amount_cents: 1250, unit: 'per_1k_tokens' }` → `€12.50 per 1k tokens`. */
export function formatChargebackRate(rate: CatalogAgentSnapshot['chargeback_rate']): string {
  const euros = groupThousands(Math.floor(rate.amount_cents / 100));
  const cents = String(rate.amount_cents % 100).padStart(2, '0');
  return `€${euros}.${cents} ${UNIT_LABELS[rate.unit]}`;
}

/** `512` → `512 B`, `1536` → `1.5 KiB`, `5242880` → `5.0 MiB` (binary units, one decimal). */
export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = size / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

function groupThousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
