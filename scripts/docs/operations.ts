import { cell } from './sections.js';

/** The table of configuration variables. */
export function renderVariables(variables: readonly { name: string; default: string; description: string }[]): string {
  const rows = variables.map((v) => `| \`${v.name}\` | ${cell(v.default)} | ${cell(v.description)} |`);
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}

/** The table of jobs: name, schedule, what it does, retries. */
export function renderJobs(
  jobs: readonly {
    name: string;
    description: string;
    schedule?: { pattern: string; tz: string };
    retry: { attempts: number };
  }[],
): string {
  const rows = jobs.map((job) => {
    const when = job.schedule ? `\`${job.schedule.pattern}\` (${job.schedule.tz})` : 'when enqueued';
    return `| \`${job.name}\` | ${cell(when)} | ${job.retry.attempts} | ${cell(job.description)} |`;
  });
  return ['| Job | Schedule (cron) | Attempts | What it does |', '|---|---|---|---|', ...rows].join('\n');
}

/** The CLI's own usage text as a code block. */
export function renderUsage(usage: string): string {
  return ['```text', usage.trim(), '```'].join('\n');
}
