import type { FastifyInstance } from 'fastify';

/**
 * The one line for a listen that failed because of the port or host it was given (the variable
 * that sets the port is named), or undefined for any other failure.
 */
export function portProblem(
  error: unknown,
  address: { host: string; port: number },
  variable: string,
): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE')
    return `Port ${address.port} (${variable}) is already in use on ${address.host}: stop what listens there, or set ${variable} to a free port.`;
  if (code === 'EACCES')
    return `Port ${address.port} (${variable}) may not be used by this user on ${address.host}: set ${variable} to a port above 1023.`;
  if (code === 'EADDRNOTAVAIL')
    return `${address.host} (HOST) is not an address of this machine: set HOST to one of its addresses, e.g. 127.0.0.1 or 0.0.0.0.`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `${address.host} (HOST) is not a name this machine can resolve: set HOST to one of its addresses, e.g. 127.0.0.1 or 0.0.0.0.`;
  return undefined;
}

/** For a `.catch` of a listen: one line and exit 1 for a port problem, else the error goes on. */
export function exitOnPortProblem(host: string, port: number, variable: string): (error: unknown) => never {
  return (error) => {
    const problem = portProblem(error, { host, port }, variable);
    if (!problem) throw error;
    console.error(problem);
    process.exit(1);
  };
}

/**
 * `app.listen`, or one line and exit 1 when the port is taken or not allowed. Other failures are
 * not start-up mistakes of a newcomer: they are thrown.
 *
 * Fastify writes "Server listening at …" once per address (every interface for 0.0.0.0) and has
 * no option to leave it out; the caller writes one line of its own, so the app's logger is silent
 * for the listen alone: after `ready` (the plugins' start-up lines are kept), restored at once.
 * No request is answered meanwhile, except with HOST=localhost while Fastify binds the second
 * address (a few milliseconds): such a request's line would not be written.
 */
export async function listenOrExit(
  app: FastifyInstance,
  address: { host: string; port: number },
  variable: string,
): Promise<void> {
  await app.ready();
  const level = app.log.level;
  app.log.level = 'silent';
  try {
    await app.listen(address).catch(exitOnPortProblem(address.host, address.port, variable));
  } finally {
    app.log.level = level;
  }
}
