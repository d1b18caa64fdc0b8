import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, BODY_ERRORS, PageSchema, errorResponses } from '@platform/http';
import {
  CapabilityProfileInputSchema,
  CapabilityProfileListQuerySchema,
  CapabilityProfileParamsSchema,
  CapabilityProfilePatchSchema,
  CapabilityProfileSchema,
} from './schemas.js';
import type { CapabilityProfileService } from './service.js';

const READ = 'requests:read';
const WRITE = 'requests:write';
const tags = ['Capability profiles'];

export const capabilityProfileRoutes: FastifyPluginAsync<{ profiles: CapabilityProfileService }> = async (
  plugin,
  { profiles },
) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/capability-profiles',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'createCapabilityProfile',
        summary: 'Create a capability profile',
        description: 'Records what a team needs from an agent: required capabilities, data classification and budget.',
        body: CapabilityProfileInputSchema,
        response: { 201: CapabilityProfileSchema, ...errorResponses([...AUTH_ERRORS, ...BODY_ERRORS]) },
      },
    },
    async (request, reply) => reply.status(201).send(await profiles.create(request.auth.accountId, request.body)),
  );

  app.get(
    '/capability-profiles',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'listCapabilityProfiles',
        summary: 'List capability profiles',
        description: 'Capability profiles of the account, newest first, optionally of one `team`.',
        querystring: CapabilityProfileListQuerySchema,
        response: { 200: PageSchema(CapabilityProfileSchema), ...errorResponses([...AUTH_ERRORS, 422]) },
      },
    },
    async (request) => profiles.list(request.auth.accountId, request.query),
  );

  app.get(
    '/capability-profiles/:profileId',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'getCapabilityProfile',
        summary: 'Get a capability profile',
        params: CapabilityProfileParamsSchema,
        response: { 200: CapabilityProfileSchema, ...errorResponses([...AUTH_ERRORS, 404]) },
      },
    },
    async (request) => profiles.get(request.auth.accountId, request.params.profileId),
  );

  app.patch(
    '/capability-profiles/:profileId',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'updateCapabilityProfile',
        summary: 'Update a capability profile',
        description:
          'Changes individual fields (JSON merge patch); `budget` merges field by field, `required_capabilities` is replaced as a whole. ' +
          'Scores already given are kept as they were; `POST /access-requests/{requestId}/score` scores a request again. ' +
          'The `team` cannot change once access requests use the profile (409 `conflict`).',
        params: CapabilityProfileParamsSchema,
        body: CapabilityProfilePatchSchema,
        response: { 200: CapabilityProfileSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS]) },
      },
    },
    async (request) => profiles.update(request.auth.accountId, request.params.profileId, request.body),
  );
};
