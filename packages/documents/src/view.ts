import { notFound } from '@platform/http';

/** The columns every document table has, as Prisma reads them. */
export interface DocumentColumns {
  sha256: string | null;
  size: number | null;
  failure_reason: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
  published_at: Date | null;
}

const iso = (value: Date | null) => value?.toISOString() ?? null;

/** The generated file (`{size, sha256}`; sha256 is the download ETag), or null until completed. */
export function documentFile(row: Pick<DocumentColumns, 'sha256' | 'size'>): { size: number; sha256: string } | null {
  return row.sha256 === null || row.size === null ? null : { size: row.size, sha256: row.sha256 };
}

/** The lifecycle fields of a document's API view. */
export function documentState(row: DocumentColumns) {
  return {
    failure_reason: row.failure_reason,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    completed_at: iso(row.completed_at),
    published_at: iso(row.published_at),
  };
}

/** The stored file's content address of a completed document, or the 404 naming it (`The listing's PDF`) and its status. */
export function storedFile(row: { sha256: string | null; status: string }, what: string): string {
  if (row.sha256 === null) throw notFound(`${what} is not ready (status ${row.status}).`);
  return row.sha256;
}
