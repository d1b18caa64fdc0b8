import { Type, type Static } from '@sinclair/typebox';
import { Named, Nullable, PageQuerySchema, StringEnum } from '@platform/http';
import { ARTIFACT_KINDS } from '../artifacts/index.js';
import { AgentSchema } from '../agents/index.js';

/** The document lifecycle of `@platform/documents` (DocumentStatus). */
export const CATALOG_ENTRY_STATUSES = ['generating', 'completed', 'failed', 'published', 'withdrawn'] as const;

const CatalogArtifactSchema = Type.Object({
  id: Type.String({ description: 'The artifact it was copied from (it may since have been changed or deleted).' }),
  kind: StringEnum(ARTIFACT_KINDS),
  title: Nullable(Type.String()),
  version: Nullable(Type.String()),
  content_type: Type.String(),
  size: Type.Integer({ description: 'Bytes.' }),
  sha256: Type.String({ description: 'Hex SHA-256 of the artifact as it was; printed in the record.' }),
  filename: Type.String(),
});

export const CatalogEntrySchema = Named(
  'CatalogEntry',
  Type.Object(
    {
      id: Type.String(),
      agent_id: Type.String(),
      version: Type.Integer({
        minimum: 1,
        description: '1, 2, 3, … per agent, in the order the entries were generated.',
      }),
      status: StringEnum(CATALOG_ENTRY_STATUSES, {
        description:
          "`generating` → `completed` (the record is ready) or `failed` (see `failure_reason`); `published` while it is the agent's entry in the " +
          'internal catalog; `withdrawn` once taken out (withdrawn by hand, replaced by another published entry of the agent, or the agent retired).',
      }),
      agent: Type.Omit(AgentSchema, ['status', 'artifact_count', 'created_at', 'updated_at', 'retired_at'], {
        title: 'AgentDeploymentSnapshot',
        description: 'The agent as it was when the entry was generated; later updates of the agent do not change it.',
      }),
      artifacts: Type.Array(CatalogArtifactSchema, {
        description: "The agent's artifacts as they were, oldest first.",
      }),
      record_url: Type.String({ description: 'Where the record (PDF) is downloaded once `completed`.' }),
      record: Nullable(
        Type.Object({
          size: Type.Integer({ description: 'Bytes.' }),
          sha256: Type.String({ description: 'The download ETag.' }),
        }),
      ),
      failure_reason: Nullable(Type.String()),
      created_at: Type.String({
        format: 'date-time',
        description: 'When the entry was generated (its snapshot taken).',
      }),
      updated_at: Type.String({ format: 'date-time' }),
      completed_at: Nullable(Type.String({ format: 'date-time' })),
      published_at: Nullable(Type.String({ format: 'date-time', description: 'When it was first published.' })),
    },
    { description: 'A catalog entry: a snapshot of an agent and its artifacts with its record (PDF).' },
  ),
);
export type CatalogEntry = Static<typeof CatalogEntrySchema>;

export const CatalogEntryParamsSchema = Type.Object({ catalogEntryId: Type.String() });
export const AgentCatalogEntryParamsSchema = Type.Object({ agentId: Type.String() });

export const CatalogEntryListQuerySchema = Type.Composite([
  PageQuerySchema,
  Type.Object({
    agent_id: Type.Optional(Type.String({ maxLength: 64 })),
    status: Type.Optional(StringEnum(CATALOG_ENTRY_STATUSES)),
  }),
]);
export type CatalogEntryListQuery = Static<typeof CatalogEntryListQuerySchema>;
