import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSandbox, SandboxError, type Sandbox, type SandboxOptions, type TaskSample } from '../src/index.js';
import * as t from './fixtures/tasks.js';

const entry = fileURLToPath(new URL('./fixtures/entry.ts', import.meta.url));
const opened: Sandbox[] = [];

function sandbox(options: Partial<SandboxOptions> = {}): Sandbox {
  const created = createSandbox({ entry, processes: 1, memoryMb: 256, timeoutMs: 10_000, ...options });
  opened.push(created);
  return created;
}

afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
});

async function failure(promise: Promise<unknown>): Promise<SandboxError> {
  const error = await promise.then(
    () => {
      throw new Error('the task succeeded');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SandboxError);
  return error as SandboxError;
}

describe('sandbox: tasks in child processes', () => {
  const samples: TaskSample[] = [];
  const box = sandbox({ onTask: (sample) => samples.push(sample) });
  afterEach(() => {
    samples.length = 0;
  });

  it('runs a task and returns its output, Buffers included', async () => {
    const output = await box.run(t.ECHO, { value: { a: [1, 'ü'], at: new Date(0) }, buffer: Buffer.alloc(3000, 7) });
    expect(output).toEqual({ value: { a: [1, 'ü'], at: new Date(0) }, bytes: 3000 });
    expect(samples).toMatchObject([{ task: 'test.echo', outcome: 'ok' }]);
    expect(samples[0].peakRssBytes).toBeGreaterThan(0);
  });

  it('passes a refusal on with its message and keeps the child', async () => {
    const { pid } = await box.run(t.PID, {});
    const error = await failure(
      box.run(t.REFUSE, { message: 'The image is 9000 × 9000 pixels; at most 40 megapixels.' }),
    );
    expect(error).toMatchObject({
      kind: 'refused',
      code: 'limit',
      message: 'The image is 9000 × 9000 pixels; at most 40 megapixels.',
      abnormal: false,
    });
    expect((await box.run(t.PID, {})).pid).toBe(pid);
  });

  it('reports an error a task throws as failed, without the paths of its workspace', async () => {
    const error = await failure(box.run(t.THROW, { message: 'VipsJpeg: Premature end of input file' }));
    expect(error.kind).toBe('failed');
    expect(error.message).toBe('VipsJpeg: Premature end of input file in <file>');
  });

  it('survives an error thrown inside a zlib callback: that task crashes, the next one runs in a new child', async () => {
    const { pid } = await box.run(t.PID, {});
    const error = await failure(box.run(t.THROW_IN_CALLBACK, {}));
    expect(error).toMatchObject({ kind: 'crashed', abnormal: true });
    expect(error.message).toMatch(/incorrect header check/);
    const after = await box.run(t.PID, {});
    expect(after.pid).not.toBe(pid);
  });

  it('counts a rejection nobody handles as a crash', async () => {
    const error = await failure(box.run(t.REJECT_UNHANDLED, {}));
    expect(error.kind).toBe('crashed');
    expect(error.message).toMatch(/nobody waits for this/);
  });

  it.each([['an exit', { code: 3 }, /exit code 3/]] as const)(
    'reports %s as a crash',
    async (_name, input, message) => {
      const error = await failure(box.run(t.EXIT, input));
      expect(error.kind).toBe('crashed');
      expect(error.message).toMatch(message);
    },
  );

  it("reports a fatal signal (a native decoder's segmentation fault) as a crash", async () => {
    const error = await failure(box.run(t.SIGNAL, { signal: 'SIGSEGV' }));
    expect(error.kind).toBe('crashed');
    expect(error.message).toMatch(/SIGSEGV/);
  });

  it('ends a task that holds more native memory than the limit, and lets one under it finish', async () => {
    expect(await box.run(t.NATIVE_MEMORY, { mb: 40, holdMs: 100 })).toEqual({ held: 40 });
    const error = await failure(box.run(t.NATIVE_MEMORY, { mb: 400, holdMs: 5000 }));
    expect(error).toMatchObject({ kind: 'memory', abnormal: true });
    expect(error.message).toMatch(/256 MiB/);
    expect(samples.at(-1)).toMatchObject({ outcome: 'memory' });
  });

  it('ends a task whose V8 heap runs out as a memory failure', async () => {
    const error = await failure(box.run(t.HEAP_MEMORY, {}));
    expect(error.kind).toBe('memory');
  });

  it('ends an endless task at its deadline and goes on', async () => {
    const started = Date.now();
    const error = await failure(box.run(t.ENDLESS, {}, { timeoutMs: 500 }));
    expect(error).toMatchObject({ kind: 'timeout', abnormal: true });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await box.run(t.SLEEP, { ms: 1 })).toEqual({ slept: 1 });
  });

  it("shows the child none of the parent's variables but a short list", async () => {
    process.env.DATABASE_URL = 'postgres://secret@db/app';
    try {
      const { names } = await sandbox().run(t.ENVIRONMENT, {}); // a child started while the variable is set
      expect(names).not.toContain('DATABASE_URL');
      expect(
        names.filter(
          (name) => !['PATH', 'HOME', 'TMPDIR', 'TMP', 'TEMP', 'LANG', 'LC_ALL', 'NODE_ENV', 'TZ'].includes(name),
        ),
      ).toEqual([]);
    } finally {
      delete process.env.DATABASE_URL;
    }
  });
});

describe('sandbox: the pool', () => {
  it('runs tasks side by side up to its processes, then in line', async () => {
    const box = sandbox({ processes: 2 });
    await Promise.all([box.run(t.SLEEP, { ms: 1 }), box.run(t.SLEEP, { ms: 1 })]); // both children started
    const started = Date.now();
    await Promise.all([box.run(t.SLEEP, { ms: 600 }), box.run(t.SLEEP, { ms: 600 }), box.run(t.SLEEP, { ms: 600 })]);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1150);
    expect(elapsed).toBeLessThan(1790);
    expect(box.size).toBe(2);
  });

  it('refuses a task when too many wait already', async () => {
    const box = sandbox({ maxWaiting: 1 });
    const first = box.run(t.SLEEP, { ms: 300 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = box.run(t.SLEEP, { ms: 1 });
    const error = await failure(box.run(t.SLEEP, { ms: 1 }));
    expect(error.kind).toBe('busy');
    await expect(Promise.all([first, second])).resolves.toHaveLength(2);
  });

  it('replaces a child after its number of tasks', async () => {
    const box = sandbox({ tasksPerChild: 2 });
    const pids = [];
    for (let i = 0; i < 4; i++) pids.push((await box.run(t.PID, {})).pid);
    expect(pids[0]).toBe(pids[1]);
    expect(pids[2]).toBe(pids[3]);
    expect(pids[2]).not.toBe(pids[0]);
  });

  it('lets an idle child go after its idle time', async () => {
    const box = sandbox({ idleMs: 100 });
    await box.run(t.PID, {});
    expect(box.size).toBe(1);
    for (let i = 0; i < 50 && box.size > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(box.size).toBe(0);
    expect(await box.run(t.SLEEP, { ms: 1 })).toEqual({ slept: 1 });
  });

  it('refuses waiting tasks when closed, and ends its children', async () => {
    const box = sandbox();
    const running = box.run(t.SLEEP, { ms: 5000 });
    const waiting = box.run(t.SLEEP, { ms: 1 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const closing = box.close();
    expect((await failure(waiting)).kind).toBe('closed');
    expect(await failure(running)).toMatchObject({ kind: 'closed', abnormal: false }); // not the task's doing
    await closing;
    expect(box.size).toBe(0);
    expect((await failure(box.run(t.SLEEP, { ms: 1 }))).kind).toBe('closed');
  });

  it("keeps what a child wrote to stderr out of the task's message, and tells the operator instead", async () => {
    const trouble: string[] = [];
    const box = sandbox({ onChildTrouble: (line) => trouble.push(line) });
    const error = await failure(box.run(t.STDERR_THEN_SIGNAL, { text: 'reading /srv/app/.env SECRET=1' }));
    expect(error).toMatchObject({ kind: 'crashed', message: 'stopped (signal SIGSEGV)' });
    expect(trouble.join('\n')).toMatch(
      /test.stderr-then-signal ended its process \(signal SIGSEGV\): reading \/srv\/app\/.env SECRET=1/,
    );
  });

  it('does not blame a task for a crash an earlier task left behind: it runs in a new child', async () => {
    const box = sandbox();
    const first = await box.run(t.PID, {});
    expect(await box.run(t.LEAVE_A_THROW, { after: 150 })).toEqual({ left: true });
    const after = await box.run(t.SLEEP, { ms: 400 }); // the leftover throws while this runs... or before it starts
    expect(after).toEqual({ slept: 400 });
    expect((await box.run(t.PID, {})).pid).not.toBe(first.pid);
  });

  it('gives up a task as unavailable (not as its fault) when no child can start, and is not stuck afterwards', async () => {
    const box = createSandbox({ entry: '/nonexistent/entry.js', processes: 1, memoryMb: 256, timeoutMs: 5000 });
    opened.push(box);
    expect(await failure(box.run(t.PID, {}))).toMatchObject({ kind: 'unavailable', abnormal: false });
    expect(await failure(box.run(t.PID, {}))).toMatchObject({ kind: 'unavailable' });
    expect(box.size).toBe(0);
  });

  it('lets one group have only so many tasks in at once, and gives up a task that waits too long', async () => {
    const box = sandbox({ maxPerGroup: 2, maxWaitMs: 300 });
    const first = box.run(t.SLEEP, { ms: 600 }, { group: 'acct_a' });
    const second = box.run(t.SLEEP, { ms: 1 }, { group: 'acct_a' });
    expect(await failure(box.run(t.SLEEP, { ms: 1 }, { group: 'acct_a' }))).toMatchObject({
      kind: 'busy',
      message: expect.stringMatching(/same account/),
    });
    expect(await failure(second)).toMatchObject({ kind: 'busy', message: expect.stringMatching(/waited 0 s|waited/) }); // behind a 600 ms task, with 300 ms to wait
    await first;
    expect(await box.run(t.SLEEP, { ms: 1 }, { group: 'acct_a' })).toEqual({ slept: 1 });
  });
});
