import { parseArgs } from 'node:util';

/** Every option any command takes (a command ignores the others; its own `--help` names its own). */
const OPTIONS = {
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h' },
  name: { type: 'string' },
  account: { type: 'string' },
  service: { type: 'string' },
  app: { type: 'string' },
  scopes: { type: 'string' },
  'time-zone': { type: 'string' },
  period: { type: 'string' },
  street: { type: 'string' },
  'postal-code': { type: 'string' },
  city: { type: 'string' },
  country: { type: 'string' },
  'vat-id': { type: 'string' },
  'tax-number': { type: 'string' },
  email: { type: 'string' },
  phone: { type: 'string' },
  contact: { type: 'string' },
  iban: { type: 'string' },
  bic: { type: 'string' },
  'payment-terms-days': { type: 'string' },
  'owner-email': { type: 'string' },
  'per-minute': { type: 'string' },
  default: { type: 'boolean' },
  version: { type: 'string' },
  since: { type: 'string' },
  'dry-run': { type: 'boolean' },
  'expires-in': { type: 'string' },
} as const;

/** The command line: the words (`key roll key_…`) and the options; throws on an unknown option. */
export const parseCommandLine = (args: string[]) => parseArgs({ args, allowPositionals: true, options: OPTIONS });

export type Flags = ReturnType<typeof parseCommandLine>['values'];

/** The options the parser knows (`--expires-in`). */
export const OPTION_NAMES: readonly string[] = Object.keys(OPTIONS).map((name) => `--${name}`);

/** The words of a command line that failed to parse (an unknown option), to name the command's own help. */
export const wordsOf = (args: readonly string[]): string[] =>
  parseArgs({ args: [...args], allowPositionals: true, strict: false, options: OPTIONS }).positionals;
