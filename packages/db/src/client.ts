import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client.js';

export { PrismaClient };
export type { Prisma } from './generated/prisma/client.js';
export * from './generated/prisma/enums.js';

/** Either the client or an interactive transaction of it; data-access functions accept both. */
export type Db = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;

export interface DatabaseOptions {
  url: string;
  /** Pool size per process; keep it small, both apps and the worker share one server. */
  maxConnections?: number;
}

export function createPrisma({ url, maxConnections = 10 }: DatabaseOptions): PrismaClient {
  const adapter = new PrismaPg({ connectionString: url, max: maxConnections });
  return new PrismaClient({ adapter });
}
