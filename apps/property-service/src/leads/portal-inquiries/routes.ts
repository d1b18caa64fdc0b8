import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ApiError, AUTH_ERRORS, BODY_ERRORS, errorResponses, tooLargeError } from '@platform/http';
import { FEEDBACK_MAX_BYTES, FEEDBACK_TYPES, MAIL_MAX_BYTES, MAIL_TYPE, PortalImportSchema } from './schemas.js';
import type { PortalInquiryService } from './service.js';

const tags = ['Leads: Anfragen'];

/**
 * The body reaches the route as its bytes in a latin1 string (one character per byte, nothing
 * lost), so one string schema covers both media types; the service decodes it as the XML
 * declaration or the mail says. The route's limit is the mail's; a document has its own, smaller
 * one, checked here so that the 413 names it.
 */
const asBytes =
  (maxBytes: number) =>
  (_request: FastifyRequest, body: Buffer, done: (error: ApiError | null, value?: string) => void) =>
    body.length > maxBytes ? done(tooLargeError(maxBytes)) : done(null, body.toString('latin1'));

const wrongType = () =>
  new ApiError('unsupported_media_type', {
    message: `Send the body as ${FEEDBACK_TYPES.join(', ')} or ${MAIL_TYPE}.`,
    messageDe: `Der Inhalt muss ${FEEDBACK_TYPES.join(', ')} oder ${MAIL_TYPE} sein.`,
  });

const description =
  'Übernimmt Anfragen, die ein Portal (ImmoScout24, immowelt, Kleinanzeigen …) als **OpenImmo-Feedback** zurückgibt: das Dokument selbst ' +
  `(\`application/xml\`, höchstens ${FEEDBACK_MAX_BYTES} Bytes) oder die Mail des Portals im Rohformat (\`message/rfc822\`, höchstens ${MAIL_MAX_BYTES} Bytes; ` +
  'das Dokument als Anhang, am Inhalt erkannt, nicht am Dateinamen, oder im Text). Das Dokument wird gegen das Schema openimmo-feedback 1.2.5 geprüft. ' +
  'Jedes `objekt` nennt mit `oobj_id` (sonst `zusatz_refnr`) ein Inserat (`lst_…`, die `openimmo_obid` des Feeds) oder eine Immobilie dieses Kontos; ' +
  'jeder `interessent` wird eine Anfrage wie bei `POST /anfragen` (bewertet, mit Begründung; `inquiry.received` und `inquiry.scored`). ' +
  'Der Interessent wird an der E-Mail-Adresse erkannt (ohne Groß-/Kleinschreibung), sonst neu angelegt, mit einer Einwilligung `kontaktaufnahme` ' +
  'der Quelle `portal` (Text: der Datenschutz-/Einwilligungstext des Portals aus `user_defined_extend`, sonst ein Satz mit dem Namen des Portals). ' +
  'Idempotent über die ID des Portals (`int_id`, ohne sie ein Hash aus Objekt, E-Mail, Name und Text): dasselbe Dokument noch einmal legt nichts an ' +
  'und antwortet 200 mit denselben Anfragen; 201, sobald eine neu ist. Ein ungültiges Dokument, ein unbekanntes Objekt oder eine Mail ohne Dokument: ' +
  '422, und nichts wird angelegt.';

export const portalInquiryRoutes: FastifyPluginAsync<{ portalInquiries: PortalInquiryService }> = async (
  plugin,
  { portalInquiries },
) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  // Only inside this plugin: the rest of the API stays JSON only.
  app.addContentTypeParser([...FEEDBACK_TYPES], { parseAs: 'buffer' }, asBytes(FEEDBACK_MAX_BYTES));
  app.addContentTypeParser(MAIL_TYPE, { parseAs: 'buffer' }, asBytes(MAIL_MAX_BYTES));

  const bytes = Type.String({ description: 'Die Bytes des Inhalts.' });
  app.post(
    '/portal-anfragen',
    {
      config: { scope: 'leads:write' },
      bodyLimit: MAIL_MAX_BYTES,
      schema: {
        tags,
        operationId: 'portalAnfragenUebernehmen',
        summary: 'Portal-Anfragen übernehmen (OpenImmo-Feedback)',
        description,
        body: {
          content: {
            'application/xml': { schema: { ...bytes, description: 'Ein Dokument `openimmo_feedback`.' } },
            'text/xml': { schema: { ...bytes, description: 'Ein Dokument `openimmo_feedback`.' } },
            [MAIL_TYPE]: { schema: { ...bytes, description: 'Die Mail des Portals im Rohformat, mit dem Dokument.' } },
          },
        } as never,
        response: {
          200: PortalImportSchema,
          201: PortalImportSchema,
          ...errorResponses([...AUTH_ERRORS, ...BODY_ERRORS], 'de'),
        },
      },
    },
    async (request, reply) => {
      const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase() ?? '';
      const body = request.body as unknown;
      if (typeof body !== 'string') throw wrongType();
      const raw = Buffer.from(body, 'latin1');
      const result =
        type === MAIL_TYPE
          ? await portalInquiries.importMail(request.auth.accountId, raw)
          : (FEEDBACK_TYPES as readonly string[]).includes(type)
            ? await portalInquiries.importDocument(request.auth.accountId, raw)
            : (() => {
                throw wrongType();
              })();
      return reply.status(result.created ? 201 : 200).send({ anfragen: result.anfragen });
    },
  );
};
