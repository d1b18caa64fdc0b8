import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_ERRORS, BODY_ERRORS, EmptyBodySchema, SeiteSchema, errorResponses } from '@platform/http';
import {
  ProspectInputSchema,
  ProspectListQuerySchema,
  ProspectParamsSchema,
  ProspectPatchSchema,
  ProspectSchema,
  ErasureSchema,
} from './schemas.js';
import { consentRoutes } from '../consent/index.js';
import { rightsRoutes } from './rights-routes.js';
import type { ProspectService } from './service.js';

const READ = 'leads:read';
const WRITE = 'leads:write';
const tags = ['Leads: Interessenten'];

export const prospectRoutes: FastifyPluginAsync<{ prospects: ProspectService }> = async (plugin, { prospects }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  await app.register(consentRoutes, { consents: prospects.consents });
  await app.register(rightsRoutes, { rights: prospects.rights });

  app.post(
    '/interessenten',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'interessentAnlegen',
        summary: 'Interessent anlegen',
        description:
          '`nachname`, `email` und `einwilligung` sind Pflicht. `aufbewahrung_bis` wird gesetzt (Aufbewahrungsfrist ab der letzten Aktivität).',
        body: ProspectInputSchema,
        response: { 201: ProspectSchema, ...errorResponses([...AUTH_ERRORS, ...BODY_ERRORS], 'de') },
      },
    },
    async (request, reply) => reply.status(201).send(await prospects.create(request.auth.accountId, request.body)),
  );

  app.get(
    '/interessenten',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'interessentenAuflisten',
        summary: 'Interessenten auflisten',
        description: 'Neueste zuerst; Filter `suchprofil_aktiv`; `limit` 1..100 (Standard 25), `cursor`.',
        querystring: ProspectListQuerySchema,
        response: { 200: SeiteSchema(ProspectSchema), ...errorResponses([...AUTH_ERRORS, 422], 'de') },
      },
    },
    async (request) => prospects.list(request.auth.accountId, request.query),
  );

  app.get(
    '/interessenten/:interessentId',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'interessentAbrufen',
        summary: 'Interessent abrufen',
        description:
          'Ein anonymisierter Interessent hat `anonymisiert: true`; Namen, E-Mail, Telefon und Einwilligung sind `null`, das Suchprofil bleibt.',
        params: ProspectParamsSchema,
        response: { 200: ProspectSchema, ...errorResponses([...AUTH_ERRORS, 404], 'de') },
      },
    },
    async (request) => prospects.get(request.auth.accountId, request.params.interessentId),
  );

  app.post(
    '/interessenten/:interessentId/loeschung',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'interessentLoeschen',
        summary: 'Interessent l\u00f6schen',
        description:
          'Löscht sofort und unwiderruflich alle personenbezogenen Daten des Interessenten (Namen, E-Mail, Telefon, Einwilligung und die ' +
          'Nachrichten seiner Anfragen). Übrig bleiben nicht personenbezogene Statistikdaten (Kriterien des Suchprofils, nicht mehr aktiv; ' +
          'Monat der Anlage). ' +
          'Eine Wiederholung ist unschädlich und bestätigt die erste Löschung.',
        params: ProspectParamsSchema,
        body: EmptyBodySchema,
        response: { 200: ErasureSchema, ...errorResponses([...AUTH_ERRORS, 404, ...BODY_ERRORS], 'de') },
      },
    },
    async (request) =>
      prospects.erase(request.auth.accountId, request.params.interessentId, {
        by: 'api_key',
        applicationId: request.auth.applicationId,
        keyId: request.auth.keyId,
      }),
  );

  app.patch(
    '/interessenten/:interessentId',
    {
      config: { scope: WRITE },
      schema: {
        tags,
        operationId: 'interessentAendern',
        summary: 'Interessent \u00e4ndern',
        description:
          'JSON Merge Patch: fehlende Felder bleiben, `null` löscht optionale Felder, `einwilligung` und `suchprofil` werden feldweise zusammengeführt.',
        params: ProspectParamsSchema,
        body: ProspectPatchSchema,
        response: { 200: ProspectSchema, ...errorResponses([...AUTH_ERRORS, 404, 409, ...BODY_ERRORS], 'de') },
      },
    },
    async (request) => prospects.update(request.auth.accountId, request.params.interessentId, request.body),
  );
};
