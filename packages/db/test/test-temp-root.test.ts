// The test harness keeps a run's temp files in one root that its global teardown removes, so that
// `TMPDIR=$(mktemp -d) pnpm test` leaves that directory empty (tests clean up after themselves too).
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname } from 'node:path';
import { expect, it } from 'vitest';

it("test processes write their temp files into the run's temp root, which other users can neither list nor write", () => {
  const root = dirname(tmpdir());
  expect(basename(root)).toMatch(/^platform-test-/);
  expect(basename(tmpdir())).toBe('tmp');
  // 0700, or 0711 as root (the embedded server's own OS user passes through to its data dir).
  for (const dir of [root, tmpdir()]) expect(statSync(dir).mode & 0o066).toBe(0);
});
