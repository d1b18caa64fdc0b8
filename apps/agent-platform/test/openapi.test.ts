import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHELL_COMPONENTS, schemaAt, type OpenApiDocument } from '@platform/testkit';
import { startAgentPlatformApp, type AgentPlatformTestContext } from './helpers.js';

let ctx: AgentPlatformTestContext;
beforeAll(async () => {
  ctx = await startAgentPlatformApp();
});
afterAll(() => ctx.close());

type Operation = {
  operationId?: string;
  description?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, unknown>;
};

describe('GET /v1/openapi.json', () => {
  it("is the OpenAPI 3.1 document 'Agent Platform API', served without a key", async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Agent Platform API', version: '1.0.0' });
  });

  it('states the scope, an operation id and every response status of each operation', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const operations = Object.fromEntries(
      Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op]),
      ),
    );
    const expected: Record<string, [string, string, string[]]> = {
      'POST /v1/agents': ['createAgent', 'agents:write', ['201', '400', '401', '403', '413', '415', '422']],
      'GET /v1/agents': ['listAgents', 'agents:read', ['200', '400', '401', '403', '422']],
      'GET /v1/agents/{agentId}': ['getAgent', 'agents:read', ['200', '400', '401', '403', '404']],
      'PATCH /v1/agents/{agentId}': [
        'updateAgent',
        'agents:write',
        ['200', '400', '401', '403', '404', '409', '413', '415', '422'],
      ],
      'POST /v1/agents/{agentId}/retire': [
        'retireAgent',
        'agents:write',
        ['200', '400', '401', '403', '404', '409', '413', '415', '422'],
      ],
      'POST /v1/agents/{agentId}/artifacts': [
        'uploadAgentArtifact',
        'agents:write',
        ['201', '400', '401', '403', '404', '409', '413', '415', '422'],
      ],
      'GET /v1/agents/{agentId}/artifacts': [
        'listAgentArtifacts',
        'agents:read',
        ['200', '400', '401', '403', '404', '422'],
      ],
      'GET /v1/agents/{agentId}/artifacts/{artifactId}': [
        'getAgentArtifact',
        'agents:read',
        ['200', '400', '401', '403', '404'],
      ],
      'GET /v1/agents/{agentId}/artifacts/{artifactId}/content': [
        'downloadAgentArtifact',
        'agents:read',
        ['200', '304', '400', '401', '403', '404'],
      ],
      'PATCH /v1/agents/{agentId}/artifacts/{artifactId}': [
        'updateAgentArtifact',
        'agents:write',
        ['200', '400', '401', '403', '404', '413', '415', '422'],
      ],
      'DELETE /v1/agents/{agentId}/artifacts/{artifactId}': [
        'deleteAgentArtifact',
        'agents:write',
        ['204', '400', '401', '403', '404'],
      ],
      'POST /v1/agents/{agentId}/catalog-entries': [
        'generateCatalogEntry',
        'catalog:write',
        ['202', '400', '401', '403', '404', '409', '413', '415', '422'],
      ],
      'GET /v1/catalog-entries': ['listCatalogEntries', 'catalog:read', ['200', '400', '401', '403', '422']],
      'GET /v1/catalog-entries/{catalogEntryId}': [
        'getCatalogEntry',
        'catalog:read',
        ['200', '400', '401', '403', '404'],
      ],
      'GET /v1/catalog-entries/{catalogEntryId}/record': [
        'downloadCatalogEntryRecord',
        'catalog:read',
        ['200', '304', '400', '401', '403', '404'],
      ],
      'POST /v1/catalog-entries/{catalogEntryId}/publish': [
        'publishCatalogEntry',
        'catalog:write',
        ['200', '400', '401', '403', '404', '409', '413', '415', '422'],
      ],
      'POST /v1/catalog-entries/{catalogEntryId}/withdraw': [
        'withdrawCatalogEntry',
        'catalog:write',
        ['200', '400', '401', '403', '404', '409', '413', '415', '422'],
      ],
      'GET /v1/catalog': ['listCatalog', 'catalog:read', ['200', '400', '401', '403', '422']],
      'POST /v1/agents/{agentId}/usage': [
        'recordAgentUsage',
        'agents:write',
        ['200', '400', '401', '403', '404', '409', '413', '415', '422'],
      ],
      'GET /v1/agents/{agentId}/cost-estimate': [
        'getAgentCostEstimate',
        'estimates:read',
        ['200', '400', '401', '403', '404', '422'],
      ],
      'GET /v1/cost-estimates': [
        'listProfileCostEstimates',
        'estimates:read',
        ['200', '400', '401', '403', '404', '422'],
      ],
      'GET /v1/agents/{agentId}/comparables': [
        'listAgentComparables',
        'estimates:read',
        ['200', '400', '401', '403', '404'],
      ],
      'GET /v1/chargebacks/settlements': [
        'listChargebackSettlements',
        'chargebacks:read',
        ['200', '400', '401', '403', '422'],
      ],
      'GET /v1/chargebacks/settlements/{settlementId}': [
        'getChargebackSettlement',
        'chargebacks:read',
        ['200', '400', '401', '403', '404'],
      ],
      'GET /v1/internal-invoices': ['listInternalInvoices', 'chargebacks:read', ['200', '400', '401', '403', '422']],
      'GET /v1/internal-invoices/{invoiceId}': [
        'getInternalInvoice',
        'chargebacks:read',
        ['200', '400', '401', '403', '404'],
      ],
      'GET /v1/internal-invoices/{invoiceId}/pdf': [
        'downloadInternalInvoicePdf',
        'chargebacks:read',
        ['200', '304', '400', '401', '403', '404'],
      ],
      'POST /v1/capability-profiles': [
        'createCapabilityProfile',
        'requests:write',
        ['201', '400', '401', '403', '413', '415', '422'],
      ],
      'GET /v1/capability-profiles': ['listCapabilityProfiles', 'requests:read', ['200', '400', '401', '403', '422']],
      'GET /v1/capability-profiles/{profileId}': [
        'getCapabilityProfile',
        'requests:read',
        ['200', '400', '401', '403', '404'],
      ],
      'PATCH /v1/capability-profiles/{profileId}': [
        'updateCapabilityProfile',
        'requests:write',
        ['200', '400', '401', '403', '404', '409', '413', '415', '422'],
      ],
      'POST /v1/access-requests': [
        'createAccessRequest',
        'requests:write',
        ['201', '400', '401', '403', '404', '409', '413', '415', '422'],
      ],
      'GET /v1/access-requests': ['listAccessRequests', 'requests:read', ['200', '400', '401', '403', '422']],
      'GET /v1/access-requests/{requestId}': ['getAccessRequest', 'requests:read', ['200', '400', '401', '403', '404']],
      'GET /v1/access-requests/{requestId}/score': [
        'getAccessRequestScore',
        'requests:read',
        ['200', '400', '401', '403', '404'],
      ],
      'POST /v1/access-requests/{requestId}/score': [
        'scoreAccessRequest',
        'requests:write',
        ['200', '400', '401', '403', '404', '413', '415', '422'],
      ],
      'POST /v1/evaluation-sessions': [
        'createEvaluationSession',
        'sessions:write',
        ['201', '400', '401', '403', '404', '409', '413', '415', '422'],
      ],
      'GET /v1/evaluation-sessions': ['listEvaluationSessions', 'sessions:write', ['200', '400', '401', '403', '422']],
      'GET /v1/evaluation-sessions/{sessionId}': [
        'getEvaluationSession',
        'sessions:write',
        ['200', '400', '401', '403', '404'],
      ],
      'GET /v1/evaluation-sessions/{sessionId}/ics': [
        'getEvaluationSessionCalendarEvent',
        'sessions:write',
        ['200', '400', '401', '403', '404'],
      ],
      'POST /v1/evaluation-sessions/{sessionId}/confirm': [
        'confirmEvaluationSession',
        'sessions:write',
        ['200', '400', '401', '403', '404', '409', '413', '415', '422'],
      ],
      'POST /v1/evaluation-sessions/{sessionId}/reschedule': [
        'rescheduleEvaluationSession',
        'sessions:write',
        ['200', '400', '401', '403', '404', '409', '413', '415', '422'],
      ],
      'POST /v1/evaluation-sessions/{sessionId}/cancel': [
        'cancelEvaluationSession',
        'sessions:write',
        ['200', '400', '401', '403', '404', '409', '413', '415', '422'],
      ],
      'POST /v1/evaluation-sessions/{sessionId}/complete': [
        'completeEvaluationSession',
        'sessions:write',
        ['200', '400', '401', '403', '404', '409', '413', '415', '422'],
      ],
      'GET /v1/api-keys': ['listApiKeys', 'keys:manage', ['200', '400', '401', '403', '422']],
      'POST /v1/api-keys': ['createApiKey', 'keys:manage', ['201', '400', '401', '403', '413', '415', '422']],
      'DELETE /v1/api-keys/{keyId}': ['revokeApiKey', 'keys:manage', ['204', '400', '401', '403', '404']],
      'POST /v1/api-keys/{keyId}/roll': [
        'rollApiKey',
        'keys:manage',
        ['201', '400', '401', '403', '404', '409', '413', '415', '422'],
      ],
      // webhook operations: the scope follows from the subscribed event types
      'POST /v1/webhooks': ['createWebhook', '', ['201', '400', '401', '403', '413', '415', '422']],
      'GET /v1/webhooks': ['listWebhooks', '', ['200', '400', '401', '403', '422']],
      'GET /v1/webhooks/{webhookId}': ['getWebhook', '', ['200', '400', '401', '403', '404']],
      'PATCH /v1/webhooks/{webhookId}': ['updateWebhook', '', ['200', '400', '401', '403', '404', '413', '415', '422']],
      'DELETE /v1/webhooks/{webhookId}': ['deleteWebhook', '', ['204', '400', '401', '403', '404']],
      'GET /v1/webhooks/{webhookId}/deliveries': [
        'listWebhookDeliveries',
        '',
        ['200', '400', '401', '403', '404', '422'],
      ],
      'POST /v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry': [
        'retryWebhookDelivery',
        '',
        ['202', '400', '401', '403', '404', '409', '413', '415', '422'],
      ],
      'POST /v1/webhooks/{webhookId}/test': [
        'testWebhook',
        '',
        ['202', '400', '401', '403', '404', '409', '413', '415', '422', '429'],
      ],
      'POST /v1/webhooks/{webhookId}/rotate-secret': [
        'rotateWebhookSecret',
        '',
        ['200', '400', '401', '403', '404', '413', '415', '422'],
      ],
      'POST /v1/webhooks/{webhookId}/redeliveries': [
        'createWebhookRedelivery',
        '',
        ['202', '400', '401', '403', '404', '409', '413', '415', '422'],
      ],
      'GET /v1/webhooks/{webhookId}/redeliveries/{redeliveryId}': [
        'getWebhookRedelivery',
        '',
        ['200', '400', '401', '403', '404'],
      ],
      'GET /v1/event-types': ['listEventTypes', '', ['200', '400', '401', '403']],
      'GET /v1/events': ['listEvents', '', ['200', '400', '401', '403', '422']],
      'GET /v1/events/{eventId}': ['getEvent', '', ['200', '400', '401', '403', '404']],
    };
    expect(Object.keys(operations).sort()).toEqual(Object.keys(expected).sort());
    for (const [name, [operationId, scope, statuses]] of Object.entries(expected)) {
      const op = operations[name];
      expect(op.operationId, name).toBe(operationId);
      if (scope) {
        expect(op.security, name).toEqual([{ apikey: [scope] }]);
        expect(op.description, name).toContain(`Required scope: \`${scope}\`.`);
      } else {
        expect(op.description, name).toMatch(/Required scope: (the scope of each event type|none beyond a valid key)/);
      }
      // Besides its own: every operation can meet the rate limit (429) and overload (503); a POST its Idempotency-Key (409, 422).
      const guards = name.startsWith('POST ') ? ['409', '422', '429', '503'] : ['429', '503'];
      expect(Object.keys(op.responses).sort(), name).toEqual([...new Set([...statuses, ...guards])].sort());
    }
    const upload = operations['POST /v1/agents/{agentId}/artifacts'] as Operation & {
      requestBody: { content: Record<string, { schema: { required: string[] } }> };
    };
    expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data']);
    expect(upload.requestBody.content['multipart/form-data']!.schema.required).toEqual(['file', 'kind']);
    // Reading sessions needs `sessions:write`: the specification names no read scope, and each session operation says so.
    for (const name of Object.keys(expected).filter((n) => n.includes('/evaluation-sessions'))) {
      expect(operations[name].description, name).toContain('the specification names no read scope for sessions');
    }
    const ics = operations['GET /v1/evaluation-sessions/{sessionId}/ics'] as Operation & {
      responses: Record<string, { content: Record<string, unknown> }>;
    };
    expect(Object.keys(ics.responses['200']!.content)).toEqual(['text/calendar']);
  });

  describe('names its schemas as components, referenced from the operations', () => {
    let doc: OpenApiDocument;
    beforeAll(async () => {
      doc = (await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    });

    // One place each component is used: [operation, place (see schemaAt), component]. A schema that
    // loses its name (inlined again) fails its row; a new name fails the complete list below.
    const NAMED: (readonly [string, string, string])[] = [
      ['POST /v1/agents', '422', 'Error'],
      ['POST /v1/agents', 'body', 'AgentDeploymentInput'],
      ['POST /v1/agents', '201', 'AgentDeployment'],
      ['GET /v1/agents', '200 data[]', 'AgentDeployment'],
      ['PATCH /v1/agents/{agentId}', 'body', 'AgentDeploymentUpdate'],
      ['POST /v1/agents/{agentId}/artifacts', '201', 'Artifact'],
      ['PATCH /v1/agents/{agentId}/artifacts/{artifactId}', 'body', 'ArtifactUpdate'],
      ['POST /v1/agents/{agentId}/catalog-entries', '202', 'CatalogEntry'],
      ['POST /v1/agents/{agentId}/catalog-entries', '202 agent', 'AgentDeploymentSnapshot'],
      ['POST /v1/capability-profiles', 'body', 'CapabilityProfileInput'],
      ['POST /v1/capability-profiles', '201', 'CapabilityProfile'],
      ['PATCH /v1/capability-profiles/{profileId}', 'body', 'CapabilityProfileUpdate'],
      ['POST /v1/access-requests', 'body', 'AccessRequestInput'],
      ['POST /v1/access-requests', '201', 'AccessRequest'],
      ['GET /v1/access-requests/{requestId}/score', '200', 'AccessRequestScore'],
      ['POST /v1/access-requests/{requestId}/score', '200', 'AccessRequestScore'],
      ['POST /v1/evaluation-sessions', 'body', 'EvaluationSessionInput'],
      ['POST /v1/evaluation-sessions', '201', 'EvaluationSession'],
      ['POST /v1/evaluation-sessions/{sessionId}/confirm', 'body', 'EvaluationSessionConfirm'],
      ['POST /v1/evaluation-sessions/{sessionId}/reschedule', 'body', 'EvaluationSessionReschedule'],
      ['POST /v1/evaluation-sessions/{sessionId}/cancel', 'body', 'EvaluationSessionCancel'],
      ['POST /v1/agents/{agentId}/usage', 'body', 'UsageBatch'],
      ['POST /v1/agents/{agentId}/usage', '200', 'UsageBatchResult'],
      ['GET /v1/agents/{agentId}/cost-estimate', '200', 'CostEstimate'],
      ['GET /v1/cost-estimates', '200', 'ProfileCostEstimates'],
      ['GET /v1/cost-estimates', '200 agents[] estimate', 'CostEstimate'],
      ['GET /v1/agents/{agentId}/comparables', '200', 'AgentComparables'],
      ['GET /v1/agents/{agentId}/comparables', '200 data[]', 'AgentComparable'],
      ['GET /v1/chargebacks/settlements', '200 data[]', 'ChargebackSettlementSummary'],
      ['GET /v1/chargebacks/settlements/{settlementId}', '200', 'ChargebackSettlement'],
      ['GET /v1/internal-invoices', '200 data[]', 'InternalInvoice'],
      ...SHELL_COMPONENTS,
    ];

    it.each(NAMED)('%s, %s: the component %s', (operation, place, name) => {
      expect(schemaAt(doc, operation, place)).toEqual({ $ref: `#/components/schemas/${name}` });
    });

    it('has exactly the components of the table, each without its title', () => {
      expect(Object.keys(doc.components.schemas).sort()).toEqual([...new Set(NAMED.map(([, , name]) => name))].sort());
      for (const [name, schema] of Object.entries(doc.components.schemas)) expect(schema.title, name).toBeUndefined();
    });
  });

  it('serves an interactive documentation page', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });
});
