import { AsyncLocalStorage } from 'node:async_hooks';
import { TaskRefusal, type TaskHandler } from './tasks.js';

/** What the parent sends: one task at a time. */
export interface TaskRequest {
  id: number;
  task: string;
  input: unknown;
}

/** What the child answers; `crash` is its last word before it exits on an error no task could catch. */
export type TaskReply =
  | { id: number; ok: true; output: unknown }
  | { id: number; ok: false; refused: boolean; code?: string; message: string }
  | { id: number | null; crash: string }
  | { ready: true };

/** Error messages leave the child without the workspace's paths and at a bounded length. */
export function clientMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text
    .replace(/(?:file:\/\/)?(?:\/[^\s/'"`:,;()]+){2,}\/?/g, '<file>')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
}

/**
 * The child's side: answers the parent's task requests, one at a time, with the handlers given.
 * An error thrown where no task can catch it (a decoder's callback) or a rejection nobody handles
 * is reported as the crash of the task whose work threw it — told by its async context, so that a
 * timer an earlier task left behind is not blamed on the one running — then the process exits:
 * the parent starts a new one.
 */
export function serveTasks(handlers: readonly TaskHandler[]): void {
  const send = process.send?.bind(process);
  if (!send) throw new Error('serveTasks runs in a child process started by the sandbox (it needs an IPC channel).');
  const byName = new Map(handlers.map((handler) => [handler.name, handler]));
  const task = new AsyncLocalStorage<number>();

  const crash = (error: unknown) => {
    const reply: TaskReply = { id: task.getStore() ?? null, crash: clientMessage(error) };
    try {
      send(reply, () => process.exit(70));
    } catch {
      process.exit(70);
    }
    setTimeout(() => process.exit(70), 1000).unref();
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  process.on('disconnect', () => process.exit(0)); // the parent is gone

  process.on('message', (message: TaskRequest) =>
    task.run(message.id, async () => {
      let reply: TaskReply;
      try {
        const handler = byName.get(message.task);
        if (!handler) throw new Error(`This sandbox has no task ${JSON.stringify(message.task)}.`);
        reply = { id: message.id, ok: true, output: await handler.run(message.input) };
      } catch (error) {
        const refusal = error instanceof TaskRefusal ? error : undefined;
        reply = {
          id: message.id,
          ok: false,
          refused: refusal !== undefined,
          ...(refusal?.code ? { code: refusal.code } : {}),
          message: clientMessage(error),
        };
      }
      send(reply);
    }),
  );
  send({ ready: true } satisfies TaskReply);
}
