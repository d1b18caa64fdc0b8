// The types client.ts, transaction.ts and direct-sql.ts share, apart so that none imports another for a type.
import type { PrismaClient } from './generated/prisma/client.js';

/** Either the client or an interactive transaction of it; data-access functions accept both. */
export type Db = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;
