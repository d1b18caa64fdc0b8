import { Type, type Static } from '@sinclair/typebox';
import { Named, Nullable, PageQuerySchema, StringEnum } from '@platform/http';
import type { ContentType, PdfLimits } from '@platform/uploads';

export const ARTIFACT_KINDS = ['model_card', 'prompt', 'configuration', 'evaluation_report', 'other'] as const;

/** Judged from the bytes where the format has a signature (PDF, ZIP); text types must be valid UTF-8. */
export const ARTIFACT_TYPES: readonly ContentType[] = [
  'application/json',
  'text/markdown',
  'text/plain',
  'application/pdf',
  'application/yaml',
  'application/zip',
];

/** Per-file limit by default: 50 MiB. */
export const ARTIFACT_MAX_BYTES = 50 * 1024 * 1024;

/** A PDF artifact is parsed within these at upload; one that cannot be read or is beyond them is 422. */
export const ARTIFACT_PDF_LIMITS: PdfLimits = { maxPages: 2000, maxObjects: 500_000 };

const Title = Type.String({ minLength: 1, maxLength: 200 });
const Version = Type.String({ minLength: 1, maxLength: 64, description: 'Version label, e.g. `v3` or `2026-11-01`.' });

export const ArtifactFieldsSchema = Type.Object(
  { kind: StringEnum(ARTIFACT_KINDS), version: Type.Optional(Version), title: Type.Optional(Title) },
  { additionalProperties: false },
);
export type ArtifactFields = Static<typeof ArtifactFieldsSchema>;

export const ArtifactPatchSchema = Named(
  'ArtifactUpdate',
  Type.Object(
    {
      title: Type.Optional(Nullable(Title)),
      version: Type.Optional(Nullable(Version)),
      kind: Type.Optional(StringEnum(ARTIFACT_KINDS)),
    },
    { additionalProperties: false, description: 'Title, version label and kind; `null` clears title or version.' },
  ),
);
export type ArtifactPatch = Static<typeof ArtifactPatchSchema>;

export const ArtifactSchema = Named(
  'Artifact',
  Type.Object(
    {
      id: Type.String(),
      agent_id: Type.String(),
      kind: StringEnum(ARTIFACT_KINDS),
      title: Nullable(Type.String()),
      version: Nullable(Type.String()),
      content_type: Type.String({
        description: 'Judged from the bytes (or, for text, declared and checked to be UTF-8).',
      }),
      size: Type.Integer({ description: 'Bytes.' }),
      sha256: Type.String({ description: 'Hex SHA-256 of the content; the download ETag.' }),
      filename: Type.String(),
      content_url: Type.String({ description: 'Where the content is downloaded.' }),
      created_at: Type.String({ format: 'date-time' }),
      updated_at: Type.String({ format: 'date-time' }),
    },
    { description: 'A file of an agent: model card, prompt, configuration, evaluation report.' },
  ),
);
export type Artifact = Static<typeof ArtifactSchema>;

export const ArtifactCollectionParamsSchema = Type.Object({ agentId: Type.String() });
export const ArtifactParamsSchema = Type.Object({ agentId: Type.String(), artifactId: Type.String() });
export const ArtifactListQuerySchema = PageQuerySchema;
