/** One step of a graceful shutdown: what it closes, and how. */
export type ShutdownStep = [name: string, close: () => Promise<unknown>];

/**
 * Runs every step in order, also after one has failed: a failing stopper must not leave the
 * database or Redis open, or skip the other services. Returns the names of the failed steps.
 */
export async function runShutdownSteps(
  steps: readonly ShutdownStep[],
  onError: (name: string, error: unknown) => void,
  onClosed: (name: string) => void = () => {},
): Promise<string[]> {
  const failed: string[] = [];
  for (const [name, close] of steps) {
    try {
      await close();
      onClosed(name);
    } catch (error) {
      failed.push(name);
      onError(name, error);
    }
  }
  return failed;
}
