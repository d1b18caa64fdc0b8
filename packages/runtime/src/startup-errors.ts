import type { FastifyInstance } from 'fastify';

/**
 * `app.listen`, or one line and exit 1 when the port is taken or not allowed (the variable that
 * sets it is named). Other failures are not start-up mistakes of a newcomer: they are thrown.
 */
export async function listenOrExit(app: FastifyInstance, address: { host: string; port: number }, variable: string): Promise<void> {
  try {
    await app.listen(address);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem =
      code === 'EADDRINUSE'
        ? `Port ${address.port} (${variable}) is already in use on ${address.host}: stop what listens there, or set ${variable} to a free port.`
        : code === 'EACCES'
          ? `Port ${address.port} (${variable}) may not be used by this user on ${address.host}: set ${variable} to a port above 1023.`
          : code === 'EADDRNOTAVAIL'
            ? `${address.host} (HOST) is not an address of this machine: set HOST to one of its addresses, e.g. 127.0.0.1 or 0.0.0.0.`
            : undefined;
    if (!problem) throw error;
    console.error(problem);
    process.exit(1);
  }
}
