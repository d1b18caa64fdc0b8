import { Type, type Static } from '@sinclair/typebox';
import { PageQuerySchema, StringEnum } from '@platform/http';
import { CAPABILITY_NAME_PATTERN, DATA_CLASSIFICATIONS } from '../agents/index.js';

export const CatalogQuerySchema = Type.Composite([
  PageQuerySchema,
  Type.Object({
    capability: Type.Optional(
      Type.String({ pattern: CAPABILITY_NAME_PATTERN, description: 'Only agents with this capability (exact name).' }),
    ),
    data_classification: Type.Optional(
      StringEnum(DATA_CLASSIFICATIONS, {
        description: 'Only agents of this data classification (exactly this level).',
      }),
    ),
  }),
]);
export type CatalogQuery = Static<typeof CatalogQuerySchema>;
