import { defineConfig } from 'prisma/config';

// Used by `prisma generate` only; migrations are applied by packages/db's runner (see DESIGN §4).
export default defineConfig({
  schema: '../../prisma/schema.prisma',
  migrations: { path: '../../prisma/migrations' },
});
