import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHELL_COMPONENTS, schemaAt, type OpenApiDocument } from '@platform/testkit';
import { startPropertyApp, type PropertyTestContext } from './helpers.js';

let ctx: PropertyTestContext;
beforeAll(async () => {
  ctx = await startPropertyApp();
});
afterAll(() => ctx.close());

type Operation = {
  operationId?: string;
  description?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, unknown>;
  parameters?: unknown[];
};

const propertyDocument = async (): Promise<OpenApiDocument> =>
  (await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
const leadsDocument = async (): Promise<OpenApiDocument> =>
  (await ctx.app.inject({ method: 'GET', url: '/leads/v1/openapi.json' })).json();

describe('GET /v1/openapi.json', () => {
  it('is an OpenAPI 3.1 document, version 1.0.0, without a key', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.components.securitySchemes.apikey).toEqual({ type: 'apiKey', in: 'header', name: 'apikey' });
  });

  it('states the scope and every response of each operation', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const operations: [string, Operation][] = Object.entries(
      doc.paths as Record<string, Record<string, Operation>>,
    ).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as [string, Operation]),
    );
    expect(operations.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'POST /v1/properties',
        'GET /v1/properties',
        'GET /v1/properties/{propertyId}',
        'PATCH /v1/properties/{propertyId}',
        'POST /v1/properties/{propertyId}/archive',
        'GET /v1/api-keys',
      ]),
    );
    for (const [name, op] of operations) {
      const scope = op.security?.[0]?.apikey?.[0];
      if (name.includes('/webhooks') || name.includes('/event-types') || name.startsWith('GET /v1/events')) {
        expect(op.description, name).toMatch(/Required scope: (the scope of each event type|none beyond a valid key)/);
      } else {
        expect(scope, name).toMatch(/^[a-z]+:[a-z]+$/);
        expect(op.description, name).toContain(`Required scope: \`${scope}\``);
      }
      expect(op.operationId, name).toBeTruthy();
      expect(Object.keys(op.responses), name).toEqual(expect.arrayContaining(['401', '403']));
      expect(
        Object.keys(op.responses).some((status) => status.startsWith('2')),
        name,
      ).toBe(true);
    }
    const update = operations.find(([name]) => name === 'PATCH /v1/properties/{propertyId}')![1];
    expect(update.operationId).toBe('updateProperty');
    expect(update.security).toEqual([{ apikey: ['properties:write'] }]);
    expect(Object.keys(update.responses)).toEqual(expect.arrayContaining(['200', '403', '404', '422']));
  });

  it('puts every viewing operation under `appointments:write`, reading too, and says so; the 409s name the clashing record', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const viewings = Object.entries(doc.paths as Record<string, Record<string, Operation>>)
      .filter(([path]) => path.startsWith('/v1/appointments') || path.includes('viewing-slots'))
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as [string, Operation]),
      );
    expect(Object.fromEntries(viewings.map(([name, op]) => [name, op.operationId]))).toEqual({
      'POST /v1/appointments': 'createAppointment',
      'GET /v1/appointments': 'listAppointments',
      'GET /v1/appointments/{appointmentId}': 'getAppointment',
      'GET /v1/appointments/{appointmentId}/ics': 'getAppointmentIcs',
      'POST /v1/appointments/{appointmentId}/confirm': 'confirmAppointment',
      'POST /v1/appointments/{appointmentId}/reschedule': 'rescheduleAppointment',
      'POST /v1/appointments/{appointmentId}/cancel': 'cancelAppointment',
      'POST /v1/appointments/{appointmentId}/complete': 'completeAppointment',
      'POST /v1/properties/{propertyId}/viewing-slots': 'createViewingSlot',
      'GET /v1/properties/{propertyId}/viewing-slots': 'listViewingSlots',
      'GET /v1/viewing-slots/{slotId}': 'getViewingSlot',
      'POST /v1/viewing-slots/{slotId}/cancel': 'cancelViewingSlot',
      'POST /v1/viewing-slots/{slotId}/allocate': 'allocateViewingSlot',
    });
    for (const [name, op] of viewings) {
      expect(op.security, name).toEqual([{ apikey: ['appointments:write'] }]);
      if (name.startsWith('GET')) expect(op.description, name).toContain('Reading needs `appointments:write`');
    }
    expect(doc.paths['/v1/appointments'].post.responses['409'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
    expect(JSON.stringify(doc.components.schemas.Error)).toContain('conflicting_id');
  });

  it('documents the valuation routes under `valuations:read` and the optional transaction bodies of mark-sold and mark-rented', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const valuation = doc.paths['/v1/properties/{propertyId}/valuation'].get;
    const comparables = doc.paths['/v1/properties/{propertyId}/comparables'].get;
    expect([valuation.operationId, comparables.operationId]).toEqual([
      'getPropertyValuation',
      'listPropertyComparables',
    ]);
    for (const op of [valuation, comparables]) {
      expect(op.security).toEqual([{ apikey: ['valuations:read'] }]);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '404', '422']));
    }
    const body = (action: string) => {
      const schema = schemaAt(doc, `POST /v1/properties/{propertyId}/${action}`, 'body');
      return JSON.stringify(schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema);
    };
    expect(body('mark-sold')).toContain('"price_eur"');
    expect(body('mark-rented')).toContain('"cold_rent_eur"');
    expect(body('mark-sold')).toContain('"date"');
    expect(body('activate')).not.toContain('"date"');
  });

  it('documents the settlement routes under `commissions:read`, amounts in integer cents', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const list = doc.paths['/v1/settlements'].get;
    const one = doc.paths['/v1/settlements/{settlementId}'].get;
    expect([list.operationId, one.operationId]).toEqual(['listSettlements', 'getSettlement']);
    for (const op of [list, one]) expect(op.security).toEqual([{ apikey: ['commissions:read'] }]);
    expect(Object.keys(one.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '404']));
    expect(one.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Settlement',
    });
    const line = doc.components.schemas.Settlement.properties.lines.items;
    expect(line.properties.gross_cents.type).toBe('integer');
  });

  it('describes the media routes: the upload as multipart/form-data, the download as a binary with 304', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const media = doc.paths['/v1/properties/{propertyId}/media'];
    expect(media.post.security).toEqual([{ apikey: ['properties:write'] }]);
    expect(media.get.security).toEqual([{ apikey: ['properties:read'] }]);
    const body = media.post.requestBody.content['multipart/form-data'].schema;
    expect(body.required).toEqual(['file', 'kind']);
    expect(body.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(body.properties.kind.enum).toEqual(['photo', 'floor_plan', 'document']);
    expect(Object.keys(media.post.responses)).toEqual(
      expect.arrayContaining(['201', '401', '403', '404', '409', '413', '415', '422']),
    );
    const content = doc.paths['/v1/properties/{propertyId}/media/{mediaId}/content'].get;
    expect(content.security).toEqual([{ apikey: ['properties:read'] }]);
    expect(Object.keys(content.responses)).toEqual(expect.arrayContaining(['200', '304', '404']));
    const item = doc.paths['/v1/properties/{propertyId}/media/{mediaId}'];
    expect([item.get, item.patch, item.delete].map((op: Operation) => op.security![0]!.apikey![0])).toEqual([
      'properties:read',
      'properties:write',
      'properties:write',
    ]);
  });

  it('holds the property API only; the leads API has a document of its own', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    expect(doc.info.title).toBe('Property Marketing Service: Property API');
    expect(Object.keys(doc.paths).filter((path) => !path.startsWith('/v1/'))).toEqual([]);
    expect(Object.keys(doc.components.schemas)).toContain('Error');
    expect(Object.keys(doc.components.schemas)).not.toContain('Fehler');
  });

  it('names the schemas of the spec as components, referenced from the operations', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const create = doc.paths['/v1/properties'].post;
    expect(create.requestBody.content['application/json'].schema).toEqual(ref('PropertyInput'));
    expect(create.responses['201'].content['application/json'].schema).toEqual(ref('Property'));
    expect(
      doc.paths['/v1/properties'].get.responses['200'].content['application/json'].schema.properties.data.items,
    ).toEqual(ref('Property'));
    const input = doc.components.schemas.PropertyInput;
    expect([input.properties.address, input.properties.energy_certificate, input.properties.commission]).toEqual([
      ref('Address'),
      ref('EnergyCertificate'),
      ref('Commission'),
    ]);
    expect(input.title).toBeUndefined(); // the name says it
  });

  // One place each component is used: [operation, place (see schemaAt), component]. A schema that
  // loses its name (inlined again) fails its row; a new name fails the complete list below.
  const NAMED: (readonly [string, string, string])[] = [
    ['POST /v1/properties', '422', 'Error'],
    ['POST /v1/properties', 'body', 'PropertyInput'],
    ['POST /v1/properties', 'body address', 'Address'],
    ['POST /v1/properties', 'body energy_certificate', 'EnergyCertificate'],
    ['POST /v1/properties', 'body commission', 'Commission'],
    ['POST /v1/properties', '201', 'Property'],
    ['GET /v1/properties', '200 data[]', 'Property'],
    ['PATCH /v1/properties/{propertyId}', 'body', 'PropertyUpdate'],
    ['POST /v1/properties/{propertyId}/mark-sold', 'body', 'PropertyMarkSold'],
    ['POST /v1/properties/{propertyId}/mark-rented', 'body', 'PropertyMarkRented'],
    ['POST /v1/properties/{propertyId}/mark-sold', 'body invoice_recipients seller', 'InvoiceRecipient'],
    ['POST /v1/properties/{propertyId}/mark-rented', 'body invoice_recipients tenant', 'InvoiceRecipient'],
    ['POST /v1/properties/{propertyId}/media', '201', 'Media'],
    ['PATCH /v1/properties/{propertyId}/media/{mediaId}', 'body', 'MediaUpdate'],
    ['POST /v1/properties/{propertyId}/listings', '202', 'Listing'],
    ['POST /v1/properties/{propertyId}/listings', '202 property', 'PropertySnapshot'],
    ['POST /v1/listings/{listingId}/publish', 'body', 'ListingPublish'],
    ['POST /v1/listings/{listingId}/withdraw', 'body', 'ListingWithdraw'],
    ['POST /v1/channels', 'body', 'ChannelInput'],
    ['POST /v1/channels', '201', 'Channel'],
    ['PATCH /v1/channels/{channelId}', 'body', 'ChannelUpdate'],
    ['GET /v1/channels/{channelId}/portal-status', '200', 'PortalStatus'],
    ['POST /v1/channels/{channelId}/retransfer', '202', 'PortalStatus'],
    ['GET /v1/channels/{channelId}/transfers', '200 data[]', 'PortalTransfer'],
    ['POST /v1/appointments', 'body', 'AppointmentInput'],
    ['POST /v1/appointments', '201', 'Appointment'],
    ['POST /v1/appointments/{appointmentId}/confirm', 'body', 'AppointmentConfirm'],
    ['POST /v1/appointments/{appointmentId}/reschedule', 'body', 'AppointmentReschedule'],
    ['POST /v1/appointments/{appointmentId}/cancel', 'body', 'AppointmentCancel'],
    ['POST /v1/properties/{propertyId}/viewing-slots', 'body', 'ViewingSlotInput'],
    ['POST /v1/properties/{propertyId}/viewing-slots', '201', 'ViewingSlot'],
    ['POST /v1/viewing-slots/{slotId}/allocate', '200', 'ViewingSlotAllocation'],
    ['POST /v1/viewing-slots/{slotId}/allocate', '200 data[]', 'Appointment'],
    ['GET /v1/properties/{propertyId}/valuation', '200', 'Valuation'],
    ['GET /v1/properties/{propertyId}/comparables', '200 data[]', 'ValuedComparable'],
    ['GET /v1/settlements', '200 data[]', 'Settlement'],
    ['GET /v1/invoices', '200 data[]', 'Invoice'],
    ['POST /v1/invoices/{invoiceId}/credit-note', 'body', 'InvoiceCreditNoteInput'],
    ['POST /v1/invoices/{invoiceId}/credit-note', '201', 'Invoice'],
    ...SHELL_COMPONENTS,
  ];

  it.each(NAMED)('%s, %s: the component %s', async (operation, place, name) => {
    expect(schemaAt(await propertyDocument(), operation, place)).toEqual({ $ref: `#/components/schemas/${name}` });
  });

  it('has exactly the components of the table, each without its title', async () => {
    const doc = await propertyDocument();
    expect(Object.keys(doc.components.schemas).sort()).toEqual([...new Set(NAMED.map(([, , name]) => name))].sort());
    for (const [name, schema] of Object.entries(doc.components.schemas)) expect(schema.title, name).toBeUndefined();
  });

  it('serves an interactive documentation page', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('swagger');
  });
});

describe('GET /leads/v1/openapi.json', () => {
  const operationsOf = (doc: { paths: Record<string, Record<string, Operation>> }) =>
    Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as [string, Operation]),
    );

  it('is the leads API’s own OpenAPI 3.1 document, without a key, German error responses', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/leads/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Property Marketing Service: Leads API', version: '1.0.0' });
    const operations = operationsOf(doc);
    expect(operations.map(([name]) => name).sort()).toEqual(
      [
        'POST /leads/v1/interessenten',
        'GET /leads/v1/interessenten',
        'GET /leads/v1/ereignisse',
        'GET /leads/v1/ereignisse/{ereignisId}',
        'GET /leads/v1/interessenten/{interessentId}',
        'PATCH /leads/v1/interessenten/{interessentId}',
        'POST /leads/v1/interessenten/{interessentId}/loeschung',
        'GET /leads/v1/interessenten/{interessentId}/treffer',
        'POST /leads/v1/anfragen',
        'POST /leads/v1/portal-anfragen',
        'GET /leads/v1/anfragen',
        'GET /leads/v1/anfragen/{anfrageId}',
        'POST /leads/v1/anfragen/{anfrageId}/bewertung',
        'GET /leads/v1/immobilien/{immobilieId}/interessenten',
        'GET /leads/v1/interessenten/{interessentId}/einwilligungen',
        'POST /leads/v1/interessenten/{interessentId}/einwilligungen',
        'POST /leads/v1/interessenten/{interessentId}/einwilligungen/{einwilligungId}/bestaetigung',
        'POST /leads/v1/interessenten/{interessentId}/einwilligungen/{einwilligungId}/widerruf',
        'POST /leads/v1/interessenten/{interessentId}/einschraenkung',
        'DELETE /leads/v1/interessenten/{interessentId}/einschraenkung',
        'POST /leads/v1/interessenten/{interessentId}/widerspruch',
        'GET /leads/v1/loeschprotokoll',
        'GET /leads/v1/interessenten/{interessentId}/auskunft',
        'GET /leads/v1/interessenten/{interessentId}/auskunft/pdf',
        'GET /leads/v1/auskunftsprotokoll',
        'GET /leads/v1/einstellungen/treffer',
        'PUT /leads/v1/einstellungen/treffer',
      ].sort(),
    );
    for (const [name, op] of operations) {
      expect(op.security?.[0]?.apikey?.[0], name).toMatch(/^leads:(read|write|export)$/);
      expect(op.description, name).toContain(`Erforderlicher Scope: \`${op.security![0].apikey[0]}\`.`);
      expect(JSON.stringify(op.responses), name).not.toMatch(/Required scope|Validation failed|Not found/);
      expect(JSON.stringify(op.parameters ?? []), name).not.toMatch(/Page size|Opaque cursor/);
      expect(JSON.stringify(op.responses['403']), name).toContain('Fehler');
    }
  });

  // German names, as the leads API's fields; the same table as for the property API.
  const BENANNT: [string, string, string][] = [
    ['POST /leads/v1/interessenten', '422', 'Fehler'],
    ['POST /leads/v1/interessenten', 'body', 'InteressentAnlegen'],
    ['POST /leads/v1/interessenten', 'body einwilligung', 'Einwilligung'],
    ['POST /leads/v1/interessenten', 'body suchprofil', 'Suchprofil'],
    ['POST /leads/v1/interessenten', '201', 'Interessent'],
    ['GET /leads/v1/interessenten', '200 daten[]', 'Interessent'],
    ['GET /leads/v1/ereignisse', '200 daten[]', 'Ereignis'],
    ['PATCH /leads/v1/interessenten/{interessentId}', 'body', 'InteressentAendern'],
    ['POST /leads/v1/interessenten/{interessentId}/loeschung', '200', 'Loeschung'],
    ['POST /leads/v1/anfragen', 'body', 'AnfrageAnlegen'],
    ['POST /leads/v1/anfragen', '201', 'Anfrage'],
    ['POST /leads/v1/portal-anfragen', '201', 'PortalAnfragenImport'],
    ['POST /leads/v1/portal-anfragen', '201 anfragen[]', 'Anfrage'],
    ['GET /leads/v1/anfragen', '200 daten[]', 'Anfrage'],
    ['POST /leads/v1/anfragen/{anfrageId}/bewertung', '200 bewertung', 'Bewertung'],
    ['GET /leads/v1/interessenten/{interessentId}/treffer', '200 daten[]', 'ImmobilienTreffer'],
    ['GET /leads/v1/interessenten/{interessentId}/treffer', '200 daten[] bewertung', 'Bewertung'],
    ['GET /leads/v1/immobilien/{immobilieId}/interessenten', '200 daten[]', 'InteressentenTreffer'],
    ['GET /leads/v1/immobilien/{immobilieId}/interessenten', '200 daten[] interessent', 'Interessent'],
    ['GET /leads/v1/loeschprotokoll', '200 daten[]', 'Loeschprotokolleintrag'],
    ['GET /leads/v1/interessenten/{interessentId}/einwilligungen', '200', 'Einwilligungen'],
    ['GET /leads/v1/interessenten/{interessentId}/einwilligungen', '200 daten[]', 'Einwilligungsnachweis'],
    ['POST /leads/v1/interessenten/{interessentId}/einwilligungen', 'body', 'EinwilligungErteilen'],
    ['POST /leads/v1/interessenten/{interessentId}/einwilligungen', '201', 'Einwilligungsnachweis'],
    ['POST /leads/v1/interessenten/{interessentId}/widerspruch', '200', 'Interessent'],
    ['GET /leads/v1/interessenten/{interessentId}/auskunft', '200', 'Auskunft'],
    ['GET /leads/v1/interessenten/{interessentId}/auskunft', '200 einwilligungen[]', 'Einwilligungsnachweis'],
    ['GET /leads/v1/interessenten/{interessentId}/auskunft', '200 anfragen[]', 'Anfrage'],
    ['GET /leads/v1/interessenten/{interessentId}/auskunft', '200 anfragen[] bewertung', 'Bewertung'],
    ['GET /leads/v1/auskunftsprotokoll', '200 daten[]', 'Auskunftsprotokolleintrag'],
    ['GET /leads/v1/einstellungen/treffer', '200', 'TrefferEinstellungen'],
    ['PUT /leads/v1/einstellungen/treffer', 'body', 'TrefferEinstellungen'],
  ];

  it.each(BENANNT)('%s, %s: the component %s', async (operation, place, name) => {
    expect(schemaAt(await leadsDocument(), operation, place)).toEqual({ $ref: `#/components/schemas/${name}` });
  });

  it('has exactly the components of the table, each without its title', async () => {
    const doc = await leadsDocument();
    expect(Object.keys(doc.components.schemas).sort()).toEqual([...new Set(BENANNT.map(([, , name]) => name))].sort());
    for (const [name, schema] of Object.entries(doc.components.schemas)) expect(schema.title, name).toBeUndefined();
  });

  it('serves its own documentation page', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/leads/v1/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });
});
