import type { Agent } from '../agents/index.js';

/** An artifact of the agent as it was when the catalog entry was generated. */
export interface CatalogArtifactSnapshot {
  id: string;
  kind: 'model_card' | 'prompt' | 'configuration' | 'evaluation_report' | 'other';
  title: string | null;
  version: string | null;
  content_type: string;
  size: number;
  sha256: string;
  filename: string;
}

/** The agent's data copied into the catalog entry when it is generated: later updates of the agent never change it. */
export type CatalogAgentSnapshot = Omit<
  Agent,
  'status' | 'artifact_count' | 'created_at' | 'updated_at' | 'retired_at'
>;

export interface CatalogEntrySnapshot {
  agent: CatalogAgentSnapshot;
  /** Every artifact, oldest first. */
  artifacts: CatalogArtifactSnapshot[];
  /** When the snapshot was taken (RFC 3339); the PDF's metadata dates, so that the same snapshot gives the same bytes. */
  taken_at: string;
}
