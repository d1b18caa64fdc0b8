import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' }],
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
    // Tool configuration files must default-export.
    files: ['eslint.config.js', 'vitest.config.ts', '**/prisma.config.ts', 'packages/testkit/src/global-setup.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
