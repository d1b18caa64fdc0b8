import { readFile, writeFile } from 'node:fs/promises';
import { implement, task, type Task, type TaskHandler } from '@platform/sandbox';

/**
 * What a document's renderer gets in the sandbox: the data read from its snapshot, the stored files
 * it may draw (renditions, by content address → a path in the workspace; a missing one is absent)
 * and where to write the PDF.
 */
export interface RenderJob<D> {
  data: D;
  files: Record<string, string>;
  out: string;
}

export interface Rendered {
  bytes: number;
}

export type RenderTask<D> = Task<RenderJob<D>, Rendered>;

/** Reads a file of the job by its content address, one at a time, when it is drawn; null when it is not there. */
export type FileReader = (sha256: string) => Promise<Buffer | null>;

/** A kind of document's renderer as the sandbox runs it (`<app>.render-<kind>`). */
export function renderTask<D>(name: string): RenderTask<D> {
  return task<RenderJob<D>, Rendered>(name);
}

/** The child's side of a renderer: draws the PDF from the data and the files it reads, and writes it out. */
export function implementRender<D>(
  definition: RenderTask<D>,
  render: (data: D, read: FileReader) => Promise<Buffer>,
): TaskHandler {
  return implement(definition, async ({ data, files, out }) => {
    const read: FileReader = async (sha256) => (Object.hasOwn(files, sha256) ? readFile(files[sha256]) : null);
    const pdf = await render(data, read);
    await writeFile(out, pdf);
    return { bytes: pdf.length };
  });
}
