import { defineConfig } from 'prisma/config';

// Used by `prisma generate` only; migrations are applied by packages/db's runner (see DESIGN §4).
export default defineConfig({
  // A folder: every .prisma file in it; prisma/schema/main.prisma holds the generator and datasource.
  schema: '../../prisma/schema',
  migrations: { path: '../../prisma/migrations' },
});
