import { simpleParser } from 'mailparser';
import { validationError } from '@platform/http';
import { decodeXml, looksLikeFeedback, notFeedback } from './feedback.js';
import { FEEDBACK_MAX_BYTES } from './schemas.js';

/** At most this many parts of a mail are looked at (a portal's mail has two or three). */
const MAX_PARTS = 20;

/**
 * The OpenImmo-Feedback document of a raw mail as the portal sent it: the attachment whose content
 * is an `openimmo_feedback` document (by its content, whatever its name or type), else the text
 * body when that is one (inline). None: 422.
 */
export async function feedbackOfMail(raw: Buffer): Promise<string> {
  let mail;
  try {
    mail = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true });
  } catch {
    throw notFeedback([{ field: 'mail', reason: 'invalid_format' }]);
  }
  for (const attachment of mail.attachments.slice(0, MAX_PARTS)) {
    // The opening is judged on the raw bytes: another attachment (a photo, a PDF) is never decoded.
    if (looksLikeFeedback(attachment.content.subarray(0, 4096).toString('latin1'))) {
      // The document inside a mail is held to the same limit as one sent alone.
      if (attachment.content.length > FEEDBACK_MAX_BYTES)
        throw validationError([
          { field: 'mail/anhang', reason: 'too_long', constraint: { max_bytes: FEEDBACK_MAX_BYTES } },
        ]);
      return decodeXml(attachment.content);
    }
  }
  const inline = mail.text?.trim();
  if (inline && looksLikeFeedback(inline)) return inline;
  throw notFeedback([{ field: 'mail/anhang', reason: 'missing' }]);
}
