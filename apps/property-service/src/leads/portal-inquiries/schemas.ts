import { Type } from '@sinclair/typebox';
import { Named } from '@platform/http';
import { InquirySchema } from '../inquiries/index.js';

/** The media types of the import; the body reaches the route as its bytes (see routes.ts). */
export const FEEDBACK_TYPES = ['application/xml', 'text/xml'] as const;
export const MAIL_TYPE = 'message/rfc822';

/** Body limits: a feedback document, and a mail with it attached (base64 grows it by a third). */
export const FEEDBACK_MAX_BYTES = 1024 * 1024;
export const MAIL_MAX_BYTES = 10 * 1024 * 1024;

export const PortalImportSchema = Named(
  'PortalAnfragenImport',
  Type.Object(
    {
      anfragen: Type.Array(InquirySchema, {
        description:
          'Die Anfragen des Dokuments in seiner Reihenfolge, wie `GET /anfragen/{anfrageId}` sie zeigt (neue und schon übernommene).',
      }),
    },
    { additionalProperties: false },
  ),
);
