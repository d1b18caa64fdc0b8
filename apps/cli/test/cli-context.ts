import { TEST_PEPPER, type TestDatabase } from '@platform/testkit';
import type { CommandContext } from '../src/commands.js';

/** A CLI context on the test database: sandbox keys, no storage and no sandbox (a command that needs either fails loudly). */
export const cliContext = (db: TestDatabase, extra: Partial<CommandContext> = {}): CommandContext => ({
  db: db.prisma,
  environment: 'sandbox',
  pepper: TEST_PEPPER,
  storage: () => {
    throw new Error('no storage in these tests');
  },
  sandbox: () => {
    throw new Error('no sandbox in these tests');
  },
  ...extra,
});
