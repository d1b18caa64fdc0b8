// For tests only (`@platform/billing/testing`): CII XML checked by the official artefacts committed
// under test/validation/en16931 — the D16B XSD with xmllint, the EN 16931 schematron with Saxon-HE.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BillingProfileInput } from './profile.js';

const VALIDATION = fileURLToPath(new URL('../test/validation/en16931/', import.meta.url));
const XSD = join(VALIDATION, 'xsd/CrossIndustryInvoice_100pD16B.xsd');
const XSLT = join(VALIDATION, 'xslt/EN16931-CII-validation.xslt');
const SAXON_JAR = process.env.SAXON_JAR ?? '/usr/share/java/Saxon-HE.jar';

export interface FailedAssert {
  id: string;
  flag: string;
  text: string;
}

export interface CiiValidation {
  /** xmllint's exit status over all documents (0: every one matches the schema) and its messages. */
  schema: { status: number | null; output: string };
  /** The schematron's failed asserts per document name. */
  failures: Map<string, FailedAssert[]>;
}

/** Validates the named documents in one xmllint run and one Saxon run (the stylesheet compiles once, ~2 s). */
export function validateCii(documents: Record<string, string>): CiiValidation {
  const dir = mkdtempSync(join(tmpdir(), 'cii-'));
  try {
    mkdirSync(join(dir, 'in'));
    mkdirSync(join(dir, 'svrl'));
    const names = Object.keys(documents);
    for (const name of names) writeFileSync(join(dir, 'in', `${name}.xml`), documents[name]);
    const xmllint = spawnSync(
      'xmllint',
      ['--noout', '--schema', XSD, ...names.map((name) => join(dir, 'in', `${name}.xml`))],
      { encoding: 'utf8' },
    );
    const schema = { status: xmllint.status, output: `${xmllint.stderr ?? ''}${xmllint.error?.message ?? ''}` };
    const saxon = spawnSync(
      'java',
      ['-cp', SAXON_JAR, 'net.sf.saxon.Transform', `-s:${join(dir, 'in')}`, `-xsl:${XSLT}`, `-o:${join(dir, 'svrl')}`],
      { encoding: 'utf8' },
    );
    if (saxon.status !== 0) throw new Error(`Saxon failed: ${saxon.stderr ?? ''}${saxon.error?.message ?? ''}`);
    const failures = new Map<string, FailedAssert[]>();
    for (const name of names) {
      const svrl = readFileSync(join(dir, 'svrl', `${name}.xml`), 'utf8');
      const asserts = [...svrl.matchAll(/<svrl:failed-assert\b([^>]*)>([\s\S]*?)<\/svrl:failed-assert>/g)].map(
        ([, attrs, body]) => ({
          id: /\bid="([^"]*)"/.exec(attrs)?.[1] ?? '?',
          flag: /\bflag="([^"]*)"/.exec(attrs)?.[1] ?? '?',
          text: (/<svrl:text>([\s\S]*?)<\/svrl:text>/.exec(body)?.[1] ?? '').trim(),
        }),
      );
      failures.set(name, asserts);
    }
    return { schema, failures };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The fatal failed asserts of one document as `ID: text` lines (empty: valid). */
export const fatalFailures = (validation: CiiValidation, name: string) =>
  (validation.failures.get(name) ?? [])
    .filter((failure) => failure.flag === 'fatal')
    .map((failure) => `${failure.id}: ${failure.text}`);

/** A complete billing profile of an issuer (an agency in Berlin): invoices with it pass EN 16931. */
export const TEST_ISSUER: BillingProfileInput = {
  name: 'Muster Immobilien GmbH',
  street: 'Friedrichstraße 10',
  postal_code: '10117',
  city: 'Berlin',
  country: 'DE',
  vat_id: 'DE123456789',
  tax_number: '30/123/45678',
  email: 'rechnung@muster-immobilien.de',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
  payment_terms_days: 14,
};
