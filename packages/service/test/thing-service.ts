import { Type } from '@sinclair/typebox';
import { TEST_SERVICES } from '@platform/testkit';
import { defineService } from '../src/index.js';

/** A service of the tests with one event type (`thing.created`, scope `things:read`) and nothing else. */
export const thingService = defineService({
  ...TEST_SERVICES[0],
  webhookHeaderPrefix: 'Test',
  events: [
    {
      type: 'thing.created',
      description: 'A thing was created.',
      scope: 'things:read',
      data: Type.Object({ id: Type.String() }),
    },
  ],
  jobs: [],
  port: { variable: 'TEST_PORT', default: 0, description: 'unused' },
  settings: [],
  loggedQueryParameters: [],
});
