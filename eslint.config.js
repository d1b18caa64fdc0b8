import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { tableOwnersPlugin } from './tools/eslint/table-owners.js';

// The Prisma models as the client names them (`propertyMedia`), read from the schema: a table's
// queries belong in its owner's repository.ts (or *-sql.ts), nowhere else in an app.
const MODELS = readdirSync(new URL('./prisma/schema/', import.meta.url))
  .filter((name) => name.endsWith('.prisma'))
  .flatMap((name) => [
    ...readFileSync(new URL(`./prisma/schema/${name}`, import.meta.url), 'utf8').matchAll(/^model (\w+)/gm),
  ])
  .map(([, model]) => model[0].toLowerCase() + model.slice(1));
const NAMED_EXPORTS = { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' };
const modelAccess = (object) => ({
  selector: `MemberExpression[${object}][property.name=/^(${MODELS.join('|')})$/]`,
  message:
    "A table is queried only in its owning resource's repository.ts or *-sql.ts: ask the owner through its index.ts.",
});

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/generated/**', '.data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': ['error', NAMED_EXPORTS],
    },
  },
  // Boundaries: packages hold mechanisms and never import an app; the two services never import
  // each other; the composition roots (cli, worker, scripts) use a service only through
  // its package's public entry; so does the contract suite (contract/).
  {
    files: ['packages/**/*.ts', 'tools/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@platform/property-service*',
                '@platform/agent-platform*',
                '@platform/cli',
                '@platform/cli/*',
                '@platform/worker*',
                '**/apps/**',
              ],
              message: 'Packages never import apps: take what you need from the app as an argument (its descriptor).',
            },
          ],
        },
      ],
    },
  },
  ...[
    ['property-service', 'agent-platform'],
    ['agent-platform', 'property-service'],
  ].flatMap(([app, other]) => {
    const apart = {
      group: [
        `@platform/${other}*`,
        '@platform/cli',
        '@platform/cli/*',
        '@platform/worker*',
        `**/${other}/**`,
        '**/cli/**',
        '**/worker/**',
      ],
      message: 'Apps never import each other.',
    };
    // Inside an app, a resource uses another only through that folder's index.ts (tests may look inside).
    const throughIndex = {
      // A folder's sandbox.ts is its second surface: the renderers the sandbox's child processes load (and nothing else).
      group: [
        './*/*.js',
        '!./*/index.js',
        '!./*/sandbox.js',
        '../*/*.js',
        '!../*/index.js',
        '../../*/*.js',
        '!../../*/index.js',
        '!../../*.js',
      ],
      message: "Use another resource only through its folder's index.ts (or, in src/sandbox.ts, its sandbox.ts).",
    };
    return [
      { files: [`apps/${app}/**/*.ts`], rules: { 'no-restricted-imports': ['error', { patterns: [apart] }] } },
      {
        files: [`apps/${app}/src/**/*.ts`],
        rules: { 'no-restricted-imports': ['error', { patterns: [apart, throughIndex] }] },
      },
    ];
  }),
  {
    files: ['apps/cli/**/*.ts', 'apps/worker/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@platform/*/*', '!@platform/*/sandbox', '!@platform/sandbox/child', '**/apps/**'],
              message:
                'Use a service only through its public entry (@platform/<app>, or @platform/<app>/sandbox for the sandbox). (Benchmarks, like tests, may measure internals.)',
            },
          ],
        },
      ],
    },
  },
  {
    // The contract suite sees the services from outside only: over HTTP, started as `pnpm start` starts them.
    files: ['contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@platform/property-service/*',
                '@platform/agent-platform/*',
                '@platform/cli',
                '@platform/cli/*',
                '@platform/worker*',
                '**/apps/**',
              ],
              message:
                'The contract suite uses a service only through its public entry (@platform/<app>) and over HTTP.',
            },
          ],
        },
      ],
    },
  },
  {
    // Data access has one owner per table: `db.listing...`, `tx.appointment...`, `ctx.db.account...`
    // appear only in repository files and raw-SQL modules.
    files: ['apps/*/src/**/*.ts'],
    ignores: ['**/repository.ts', '**/*-repository.ts', '**/*-sql.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        NAMED_EXPORTS,
        modelAccess('object.name=/^(db|tx|prisma)$/'),
        modelAccess('object.property.name=/^(db|prisma)$/'),
      ],
    },
  },
  {
    // …and each table has one owning folder, declared in the schema (`// Owner: …` above its model).
    files: ['apps/*/src/**/*.ts', 'packages/*/src/**/*.ts'],
    ignores: ['packages/testkit/**', '**/generated/**'],
    plugins: {
      tables: tableOwnersPlugin(
        fileURLToPath(new URL('.', import.meta.url)),
        fileURLToPath(new URL('./prisma/schema/', import.meta.url)),
      ),
    },
    rules: { 'tables/owner-only': 'error' },
  },
  {
    // Tool configuration files must default-export.
    files: ['eslint.config.js', 'vitest.config.ts', '**/prisma.config.ts', 'packages/testkit/src/global-setup.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
