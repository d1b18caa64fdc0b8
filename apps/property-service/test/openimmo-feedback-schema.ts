import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The official OpenImmo-Feedback 1.2.5 schema, committed beside its terms (validation/openimmo-feedback/README.md). */
export const OPENIMMO_FEEDBACK_XSD = fileURLToPath(
  new URL('./validation/openimmo-feedback/openimmo-feedback_125.xsd', import.meta.url),
);

/** What `xmllint --schema` says of a document against the official XSD: `[]` when it is valid. */
export function openImmoFeedbackSchemaErrors(xml: string): string[] {
  const run = spawnSync('xmllint', ['--noout', '--schema', OPENIMMO_FEEDBACK_XSD, '-'], {
    input: xml,
    encoding: 'utf8',
  });
  if (run.error) throw run.error;
  if (run.status === 0) return [];
  // 3: the document is invalid, 1: not well-formed; anything else (the schema unreadable, xmllint broken) is the test's failure.
  if (run.status !== 3 && run.status !== 1) throw new Error(`xmllint exited ${run.status}: ${run.stderr}`);
  return run.stderr.split('\n').filter((line) => line.trim() !== '' && !line.endsWith('fails to validate'));
}
