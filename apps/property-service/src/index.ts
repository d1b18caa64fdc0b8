import type { ServiceEntry } from '@platform/runtime';
import { buildPropertyApp } from './app.js';

export { buildPropertyApp, type PropertyAppDeps } from './app.js';

export const propertyService: ServiceEntry = {
  name: 'property-marketing service',
  port: (config) => config.propertyPort,
  build: (deps) => buildPropertyApp({ ...deps, leadsRetentionDays: deps.config.leadsRetentionDays }),
};
export { PROPERTY_JOBS } from './jobs.js';
