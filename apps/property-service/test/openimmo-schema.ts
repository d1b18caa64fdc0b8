import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The official OpenImmo 1.2.7b schema, committed beside its terms (validation/openimmo/README.md). */
export const OPENIMMO_XSD = fileURLToPath(new URL('./validation/openimmo/openimmo_127b.xsd', import.meta.url));

/** What `xmllint --schema` says of a document against the official XSD: `[]` when it is valid. */
export function openImmoSchemaErrors(xml: string): string[] {
  const run = spawnSync('xmllint', ['--noout', '--schema', OPENIMMO_XSD, '-'], { input: xml, encoding: 'utf8' });
  if (run.error) throw run.error;
  if (run.status === 0) return [];
  // 3: the document is invalid; anything else (the schema unreadable, xmllint broken) is the test's failure.
  if (run.status !== 3 && run.status !== 1) throw new Error(`xmllint exited ${run.status}: ${run.stderr}`);
  return run.stderr.split('\n').filter((line) => line.trim() !== '' && !line.endsWith('fails to validate'));
}
