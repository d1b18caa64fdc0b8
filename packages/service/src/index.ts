export { defineService, type ServiceDescriptor, type PortSetting, type IntegerSetting } from './descriptor.js';
export { defineJob, type JobDefinition, type JobCatalogue, type JobContext } from './jobs.js';
export { createServiceApp, type ServiceAppDeps, type ServiceAppOptions, type ApiContext } from './service-app.js';
