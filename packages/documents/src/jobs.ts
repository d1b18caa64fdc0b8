import { Type } from '@sinclair/typebox';
import { defineJob, type JobDefinition, type JobQueue } from '@platform/service';
import {
  generateDocument,
  generationJobId,
  resumeLostGenerations,
  sweepDocuments,
  type DocumentKind,
} from './generation.js';

export interface DocumentJobsOptions {
  /** `listing` → the jobs `generate-listing` and `sweep-listings`. */
  name: string;
  plural: string;
  /** The payload field with the document's id, e.g. `listing_id`. */
  idField: string;
  /** What is rendered, for the job's description: `the PDF exposé of a listing`. */
  renders: string;
}

export interface DocumentJobs {
  generate: JobDefinition;
  sweep: JobDefinition;
  /** Puts the generation of one document on the queue (its first job id; the sweeper numbers its own). */
  enqueue(jobs: JobQueue, id: string, sweep?: number): Promise<void>;
}

/** The two jobs of a kind of document: generating one, and sweeping those stuck in `generating` every minute. */
export function documentJobs<D>(
  kind: DocumentKind<D>,
  { name, plural, idField, renders }: DocumentJobsOptions,
): DocumentJobs {
  const generate = defineJob({
    name: `generate-${name}`,
    description: `Renders ${renders} from its snapshot and stores it (idempotent: a rerun of a finished ${name.replace('-', ' ')} does nothing).`,
    payload: Type.Object({ [idField]: Type.String() }, { additionalProperties: false }),
    retry: { attempts: 3, backoffMs: 5_000 },
    run: async ({ db, storage, sandbox, now }, payload: Record<string, string>) => {
      const id = payload[idField];
      return { [idField]: id, outcome: await generateDocument({ db, storage, sandbox, now }, kind, id) };
    },
  });
  const enqueue = (jobs: JobQueue, id: string, sweep = 0) =>
    jobs.enqueue(generate, { [idField]: id }, generationJobId(id, sweep));
  const sweep = defineJob({
    name: `sweep-${plural}`,
    description: `Enqueues again at once every ${name.replace('-', ' ')} in \`generating\` whose job the queue no longer knows (lost with Redis, or after a restore), and every one stuck there for more than 10 minutes; after 3 such tries it fails.`,
    payload: Type.Object({}, { additionalProperties: false }),
    schedule: { pattern: '* * * * *', tz: 'UTC' },
    retry: { attempts: 1, backoffMs: 0 },
    // The stuck ones first: those it takes again get a new job, which the queue then knows.
    run: async ({ db, now, jobs }) => {
      const swept = await sweepDocuments({ db, now }, kind, (id, n) => enqueue(jobs, id, n));
      const resumed = jobs.state
        ? await resumeLostGenerations({ db }, kind, jobs.state, (id, n) => enqueue(jobs, id, n))
        : 0;
      return { resumed, ...swept };
    },
  });
  return { generate, sweep, enqueue };
}
