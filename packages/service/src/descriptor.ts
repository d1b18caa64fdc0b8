import type { KeyOwner } from '@platform/auth';
import type { PrismaClient } from '@platform/db';
import type { EventCatalogue } from '@platform/webhooks';
import type { JobCatalogue } from './jobs.js';

/** The port a service listens on: its variable and default. */
export interface PortSetting {
  variable: string;
  default: number;
  description: string;
}

/** A whole-number setting of one service, read from the environment and validated at start-up. */
export interface IntegerSetting {
  kind?: 'integer';
  /** How the service reads it (`settings.leadsRetentionDays`). */
  name: string;
  variable: string;
  default: number;
  min: number;
  max: number;
  /** Named in the error message: "must be a whole number of <unit>". */
  unit: string;
  description: string;
}

/**
 * A directory of one service (state it keeps outside the database), read from the environment: a
 * relative path is resolved from the working directory; unset, it is `default` under DATA_DIR.
 */
export interface DirectorySetting {
  kind: 'directory';
  /** How the service reads it (`directories.<name>`). */
  name: string;
  variable: string;
  /** Relative to DATA_DIR. */
  default: string;
  description: string;
}

export type ServiceSetting = IntegerSetting | DirectorySetting;

/** A service's settings as validated at start-up: whole numbers and absolute directories, by name. */
export interface ResolvedSettings {
  settings: Record<string, number>;
  directories: Record<string, string>;
}

/** What a start check is given: the database, the clock, DATA_DIR and the service's resolved settings. */
export interface StartCheckDeps extends ResolvedSettings {
  db: PrismaClient;
  now: () => Date;
  dataDir: string;
}

/**
 * A precondition of a process that serves or works for the service, checked before anything listens
 * or works: the one line saying why it must not start (the process prints it and exits 1), or undefined.
 */
export type StartCheck = (deps: StartCheckDeps) => Promise<string | undefined>;

/**
 * Everything that is a service's own, declared once in its app and handed to the packages:
 * the packages hold mechanisms and never name a service, a scope or a header themselves.
 */
export interface ServiceDescriptor<C extends EventCatalogue = EventCatalogue> extends KeyOwner {
  /** Delivery headers are `X-<prefix>-Event`, `X-<prefix>-Delivery`, `X-<prefix>-Signature`. */
  webhookHeaderPrefix: string;
  events: C;
  jobs: JobCatalogue;
  port: PortSetting;
  settings: readonly ServiceSetting[];
  /** The service's own list filters, whose values may be logged (they are never personal). */
  loggedQueryParameters: readonly string[];
  /** Run by every process of the service: its API as well as a worker alone. */
  startCheck?: StartCheck;
}

/** Declares a service; `const` keeps the event catalogue's literal types for the typed `emit`. */
export function defineService<const C extends EventCatalogue>(descriptor: ServiceDescriptor<C>): ServiceDescriptor<C> {
  return descriptor;
}
