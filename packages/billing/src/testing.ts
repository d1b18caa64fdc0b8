// For tests only (`@platform/billing/testing`): CII XML checked by the official artefacts committed
// under test/validation — the D16B XSD with xmllint (en16931/xsd), and with Saxon-HE two rule sets:
// the CEN EN 16931 schematron (en16931/xslt) and KoSIT's XRechnung 3.0 schematron (xrechnung/schematron).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BillingProfileInput } from './profile.js';

const VALIDATION = fileURLToPath(new URL('../test/validation/', import.meta.url));
const XSD = join(VALIDATION, 'en16931/xsd/CrossIndustryInvoice_100pD16B.xsd');
const SAXON_JAR = process.env.SAXON_JAR ?? '/usr/share/java/Saxon-HE.jar';

/**
 * `en16931`: the CEN EN 16931 business and CII syntax rules; `xrechnung`: KoSIT's XRechnung 3.0 rules
 * (BR-DE-*, BR-TMP-*, and the Peppol rules PEPPOL-EN16931-* that XRechnung adopts).
 */
export type RuleSet = 'en16931' | 'xrechnung';
export const RULE_SETS: readonly RuleSet[] = ['en16931', 'xrechnung'];
const STYLESHEETS: Record<RuleSet, string> = {
  en16931: join(VALIDATION, 'en16931/xslt/EN16931-CII-validation.xslt'),
  xrechnung: join(VALIDATION, 'xrechnung/schematron/cii/XRechnung-CII-validation.xsl'),
};

export interface FailedAssert {
  id: string;
  /** `fatal` is an error; `warning` and `information` are not. */
  flag: string;
  text: string;
  ruleSet: RuleSet;
  /** XPath of the context node. */
  location: string;
}

export interface CiiValidation {
  /** xmllint's exit status over all documents (0: every one matches the schema) and its messages. */
  schema: { status: number | null; output: string };
  /** The EN 16931 schematron's failed asserts per document name. */
  failures: Map<string, FailedAssert[]>;
  /** The XRechnung schematron's failed asserts per document name (empty when that rule set was not run). */
  xrechnung: Map<string, FailedAssert[]>;
}

export interface ValidateOptions {
  /** The schematron rule sets to run; both unless given. */
  ruleSets?: readonly RuleSet[];
}

/**
 * Validates the named documents in one xmllint run and one Saxon run per rule set (each stylesheet
 * compiles once, ~2 s; the rule sets run side by side).
 */
export function validateCii(documents: Record<string, string>, options: ValidateOptions = {}): CiiValidation {
  const ruleSets = options.ruleSets ?? RULE_SETS;
  const dir = mkdtempSync(join(tmpdir(), 'cii-'));
  try {
    mkdirSync(join(dir, 'in'));
    const names = Object.keys(documents);
    for (const name of names) writeFileSync(join(dir, 'in', `${name}.xml`), documents[name]);
    const xmllint = spawnSync(
      'xmllint',
      ['--noout', '--schema', XSD, ...names.map((name) => join(dir, 'in', `${name}.xml`))],
      { encoding: 'utf8' },
    );
    const schema = { status: xmllint.status, output: `${xmllint.stderr ?? ''}${xmllint.error?.message ?? ''}` };
    runSaxon(
      join(dir, 'in'),
      ruleSets.map((ruleSet) => {
        mkdirSync(join(dir, ruleSet));
        return { xsl: STYLESHEETS[ruleSet], out: join(dir, ruleSet), log: join(dir, `${ruleSet}.log`) };
      }),
    );
    const read = (ruleSet: RuleSet) =>
      new Map(
        ruleSets.includes(ruleSet)
          ? names.map((name) => [name, failedAsserts(readFileSync(join(dir, ruleSet, `${name}.xml`), 'utf8'), ruleSet)])
          : [],
      );
    return { schema, failures: read('en16931'), xrechnung: read('xrechnung') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs Saxon once per stylesheet over the folder `input`, the runs side by side; throws when one fails. */
function runSaxon(input: string, runs: { xsl: string; out: string; log: string }[]): void {
  // sh gets the paths as arguments ($1 the jar, $2 the input, then xsl/out/log per run): nothing is quoted here.
  const script = [
    'jar=$1; input=$2; shift 2; pids=',
    'while [ $# -gt 0 ]; do',
    '  java -cp "$jar" net.sf.saxon.Transform "-s:$input" "-xsl:$1" "-o:$2" >"$3" 2>&1 &',
    '  pids="$pids $!"; shift 3',
    'done',
    'status=0; for pid in $pids; do wait "$pid" || status=1; done; exit $status',
  ].join('\n');
  const args = runs.flatMap((run) => [run.xsl, run.out, run.log]);
  const saxon = spawnSync('sh', ['-c', script, 'sh', SAXON_JAR, input, ...args], { encoding: 'utf8' });
  if (saxon.status !== 0) {
    const logs = runs.map((run) => {
      try {
        return readFileSync(run.log, 'utf8');
      } catch {
        return '';
      }
    });
    throw new Error(`Saxon failed: ${[saxon.stderr ?? '', saxon.error?.message ?? '', ...logs].join('')}`);
  }
}

const unescape = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** The `svrl:failed-assert`s of an SVRL report. */
function failedAsserts(svrl: string, ruleSet: RuleSet): FailedAssert[] {
  return [...svrl.matchAll(/<svrl:failed-assert\b([^>]*)>([\s\S]*?)<\/svrl:failed-assert>/g)].map(
    ([, attrs, body]) => ({
      id: /\bid="([^"]*)"/.exec(attrs)?.[1] ?? '?',
      flag: /\bflag="([^"]*)"/.exec(attrs)?.[1] ?? '?',
      text: unescape((/<svrl:text>([\s\S]*?)<\/svrl:text>/.exec(body)?.[1] ?? '').replace(/\s+/g, ' ').trim()),
      ruleSet,
      location: unescape(/\blocation="([^"]*)"/.exec(attrs)?.[1] ?? ''),
    }),
  );
}

/** All failed asserts of one document in one rule set; throws when the document or the rule set was not validated. */
export function failedAssertsOf(validation: CiiValidation, name: string, ruleSet: RuleSet = 'en16931'): FailedAssert[] {
  const asserts = (ruleSet === 'en16931' ? validation.failures : validation.xrechnung).get(name);
  if (!asserts) throw new Error(`"${name}" was not validated with the ${ruleSet} rule set`);
  return asserts;
}

const lines = (asserts: FailedAssert[]) => asserts.map((failure) => `${failure.id}: ${failure.text}`);

/** The fatal failed asserts (errors) of one document as `ID: text` lines (empty: valid), by default of EN 16931. */
export const fatalFailures = (validation: CiiValidation, name: string, ruleSet: RuleSet = 'en16931') =>
  lines(failedAssertsOf(validation, name, ruleSet).filter((failure) => failure.flag === 'fatal'));

/** The warnings of one document as `ID: text` lines, by default of EN 16931 (`information` flags are not listed). */
export const warnings = (validation: CiiValidation, name: string, ruleSet: RuleSet = 'en16931') =>
  lines(failedAssertsOf(validation, name, ruleSet).filter((failure) => failure.flag === 'warning'));

/** A complete billing profile of an issuer (an agency in Berlin): invoices with it pass EN 16931 and XRechnung 3.0. */
export const TEST_ISSUER: BillingProfileInput = {
  name: 'Muster Immobilien GmbH',
  street: 'Friedrichstraße 10',
  postal_code: '10117',
  city: 'Berlin',
  country: 'DE',
  vat_id: 'DE123456789',
  tax_number: '30/123/45678',
  email: 'rechnung@muster-immobilien.de',
  phone: '+49 30 1234567',
  contact: 'Petra Muster',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
  payment_terms_days: 14,
};
