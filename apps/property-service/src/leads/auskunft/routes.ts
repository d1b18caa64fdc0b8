import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { AUTH_ERRORS, SeiteSchema, errorResponses } from '@platform/http';
import { ProspectParamsSchema } from '../prospects/index.js';
import { AuskunftRecordQuerySchema, AuskunftRecordSchema, AuskunftSchema } from './schemas.js';
import type { AuskunftRequester, AuskunftService } from './service.js';

/**
 * A scope of its own: the Auskunft hands out everything held about a person at once (consent
 * history, messages, appointments, events), a copy meant to leave the system; a key that syncs the
 * leads into a CRM (`leads:read`) should not be able to pull such dossiers.
 */
export const EXPORT = 'leads:export';
/** The log holds ids and times only, like the Löschprotokoll: the read scope reads it. */
const READ = 'leads:read';
const tags = ['Leads: Interessenten'];

const requester = (request: FastifyRequest): AuskunftRequester => ({
  accountId: request.auth.accountId,
  applicationId: request.auth.applicationId,
  keyId: request.auth.keyId,
});

const AFTER_ERASURE =
  'Ein gelöschter oder anonymisierter Interessent antwortet 404 wie eine unbekannte ID: über ihn ist nichts ' +
  'Personenbezogenes mehr gespeichert (der Nachweis steht im Löschprotokoll).';

export const auskunftRoutes: FastifyPluginAsync<{ auskunft: AuskunftService }> = async (plugin, { auskunft }) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/interessenten/:interessentId/auskunft',
    {
      config: { scope: EXPORT },
      schema: {
        tags,
        operationId: 'auskunftAbrufen',
        summary: 'Auskunft abrufen (Art. 15/20 DSGVO)',
        description:
          'Alles, was über den Interessenten gespeichert ist, maschinenlesbar: Stammdaten, Einwilligungen mit Historie, ' +
          'Suchprofil, Anfragen mit Bewertung und Begründung, Termine mit früheren Zeiten, Treffer (angekündigte und ' +
          'verworfene passende Immobilien mit Punkten) und Tageszähler, gesendete Ereignisse (Typ, Zeit, Zustellstand), ' +
          'Aufbewahrungsfrist. Jeder Abruf wird im Auskunftsprotokoll vermerkt; `Cache-Control: no-store`. ' +
          AFTER_ERASURE,
        params: ProspectParamsSchema,
        response: { 200: AuskunftSchema, ...errorResponses([...AUTH_ERRORS, 404], 'de') },
      },
    },
    async (request) => auskunft.json(requester(request), request.params.interessentId),
  );

  app.get(
    '/interessenten/:interessentId/auskunft/pdf',
    {
      config: { scope: EXPORT },
      schema: {
        tags,
        operationId: 'auskunftPdfAbrufen',
        summary: 'Auskunft als PDF abrufen',
        description:
          'Dieselbe Auskunft als PDF-Brief an die Person (deutsch), bei jedem Abruf neu erzeugt, wie die anderen Dokumente ' +
          'in der Sandbox (eigener Prozess mit Speicher- und Zeitgrenze). Je Konto laufen dort nur wenige Aufgaben zugleich ' +
          '(Uploads eingeschlossen); darüber hinaus, oder wenn die Sandbox ausgelastet ist, 503 mit `Retry-After`. Scheitert ' +
          'die Erzeugung, 500 mit Verweis auf die JSON-Auskunft. Jeder erzeugte Abruf wird im Auskunftsprotokoll vermerkt. ' +
          AFTER_ERASURE,
        params: ProspectParamsSchema,
        response: {
          200: {
            description: 'Die Auskunft (`application/pdf`).',
            content: { 'application/pdf': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } },
          },
          ...errorResponses([...AUTH_ERRORS, 404, 503], 'de'),
        },
      },
    },
    async (request, reply) => {
      const pdf = await auskunft.pdf(requester(request), request.params.interessentId);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="auskunft-${request.params.interessentId}.pdf"`)
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );

  app.get(
    '/auskunftsprotokoll',
    {
      config: { scope: READ },
      schema: {
        tags,
        operationId: 'auskunftsprotokollAuflisten',
        summary: 'Auskunftsprotokoll auflisten',
        description:
          'Jede Auskunft (JSON oder PDF) des Kontos: zu welchem Interessenten, wann, in welchem Format, von welchem API-Key; ' +
          'ohne personenbezogene Daten, auch nach einer Löschung erhalten. Neueste zuerst; Filter `interessent_id`, `von` ' +
          '(einschließlich) und `bis` (ausschließlich); `limit` 1..100 (Standard 25), `cursor`.',
        querystring: AuskunftRecordQuerySchema,
        response: { 200: SeiteSchema(AuskunftRecordSchema), ...errorResponses([...AUTH_ERRORS, 422], 'de') },
      },
    },
    async (request) => auskunft.list(request.auth.accountId, request.query),
  );
};
