import { readFileSync } from 'node:fs';

/** A process's resident memory in bytes (`VmRSS` of /proc/<pid>/status), or null where it cannot be read (not Linux, already gone). */
export function residentBytes(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'latin1');
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}
