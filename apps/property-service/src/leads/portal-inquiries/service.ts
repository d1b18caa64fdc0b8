import { createHash } from 'node:crypto';
import { inTransaction, newId, type Db } from '@platform/db';
import { validationError, type ErrorDetail } from '@platform/http';
import { propertyRepository } from '../../properties/index.js';
import { listingRepository } from '../../listings/index.js';
import { createConsentService } from '../consent/index.js';
import { createInquiryService, type Inquiry, type InquiryServiceDeps } from '../inquiries/index.js';
import { prospectColumns, prospectRepository, retentionUntil } from '../prospects/index.js';
import { decodeXml, readFeedback, type FeedbackObject } from './feedback.js';
import { feedbackOfMail } from './mail.js';
import {
  holdPortalInquiry,
  insertPortalProspect,
  knownInquiryId,
  prospectIdByEmail,
  rememberPortalInquiry,
  type PortalInquiryKey,
} from './repository.js';
import { checkedInterest, consentWording, type CheckedInterest } from './interest.js';

export type PortalInquiryServiceDeps = InquiryServiceDeps;

/** At most this many inquiries (`interessent`) in one document. */
export const MAX_INQUIRIES = 50;
export type PortalInquiryService = ReturnType<typeof createPortalInquiryService>;

/** What an import answers: the document's inquiries as `GET /anfragen/{id}` shows them, and whether one was new. */
export interface PortalImport {
  created: boolean;
  anfragen: Inquiry[];
}

const objectNotFound = (field: string) =>
  validationError(
    [{ field, reason: 'not_allowed' }],
    `No property or listing of this account with this id (${field}).`,
    `Keine Immobilie und kein Inserat dieses Kontos mit dieser ID (${field}).`,
  );

/** The object a portal names: our listing (`lst_…`, the feed's `openimmo_obid`) or our property (the push transfer's id), in the account. */
async function propertyIdOf(tx: Db, accountId: string, objekt: FeedbackObject): Promise<string> {
  const field = objekt.oobj_id !== undefined ? 'oobj_id' : 'zusatz_refnr';
  const id = objekt.oobj_id ?? objekt.zusatz_refnr;
  if (id === undefined) throw validationError([{ field: `${objekt.path}/oobj_id`, reason: 'missing' }]);
  const missing = () => objectNotFound(`${objekt.path}/${field}`);
  if (id.startsWith('lst_')) return (await listingRepository.find(tx, accountId, id, missing)).property_id;
  return (await propertyRepository.find(tx, accountId, id, missing)).id;
}

/** The portal's id of the inquiry: `int_id`, else a hash of what makes it this inquiry (object, e-mail, name, text). */
function portalInquiryId(objectRef: string, interest: CheckedInterest): string {
  // Per object: a portal may give one person's `int_id` to all their inquiries.
  if (interest.source.int_id !== undefined) return `${objectRef}:${interest.source.int_id}`;
  const content = JSON.stringify([
    objectRef,
    interest.email.toLowerCase(),
    interest.nachname,
    interest.nachricht ?? '',
  ]);
  return `sha256:${createHash('sha256').update(content).digest('hex')}`;
}

/** OpenImmo-Feedback from portals: each `interessent` becomes an inquiry, exactly as `POST /anfragen` makes one, once. */
export function createPortalInquiryService(deps: PortalInquiryServiceDeps) {
  const { db, now } = deps;

  /** The prospect of the inquiry: the account's one with the address, else a new one with a `portal` consent. */
  async function prospectOf(
    tx: Db,
    accountId: string,
    source: { portal: string; objekt: FeedbackObject },
    interest: CheckedInterest,
    at: Date,
  ) {
    const known = await prospectIdByEmail(tx, accountId, interest.email);
    if (known) return known;
    const wording = consentWording(source.portal, interest, source.objekt.extras);
    const { id } = await insertPortalProspect(tx, {
      id: newId('int', at.getTime()),
      account_id: accountId,
      ...prospectColumns({ ...interest.prospect, einwilligung: { zweck: wording, erteilt_am: at.toISOString() } }),
      // The mirror of the marketing consent stays empty: a portal inquiry is no consent to marketing.
      consent_purpose: null,
      consent_given_at: null,
      last_activity_at: at,
      retention_until: retentionUntil(at, deps.retentionDays),
      created_at: at,
      updated_at: at,
    });
    await createConsentService({
      db: tx,
      now: () => at,
      emit: deps.emit,
      lockChangeable: (lockTx, account, prospectId) => prospectRepository.lock(lockTx, account, prospectId),
      findProspect: (findDb, account, prospectId) => prospectRepository.find(findDb, account, prospectId),
    }).give(accountId, id, {
      zweck: 'kontaktaufnahme',
      quelle: 'portal',
      erteilt_am: at.toISOString(),
      zweck_text: wording,
      // Consent to be answered, given with the inquiry itself: no double opt-in (that is for marketing sign-ups).
      double_opt_in: false,
    });
    return id;
  }

  async function importText(accountId: string, text: string): Promise<PortalImport> {
    const feedback = readFeedback(text);
    const portal = feedback.sender.trim().toLowerCase();
    const details: ErrorDetail[] = [];
    if (portal === '') details.push({ field: 'sender/name', reason: 'missing' });
    const count = feedback.objekte.reduce((sum, objekt) => sum + objekt.interessenten.length, 0);
    // Each inquiry is scored in the one transaction of the document: a portal sends a few at a time.
    if (count > MAX_INQUIRIES)
      throw validationError([
        { field: 'interessent', reason: 'out_of_range', constraint: { max_items: MAX_INQUIRIES } },
      ]);
    const objekte = feedback.objekte.map((objekt) => ({
      objekt,
      interests: objekt.interessenten.map((interest) => checkedInterest(interest, details)),
    }));
    if (details.length > 0) throw validationError(details.slice(0, 20));
    const at = now();
    return inTransaction(db, async (tx) => {
      const inquiries = createInquiryService({ ...deps, db: tx });
      const anfragen = new Map<string, Inquiry>();
      let created = false;
      for (const { objekt, interests } of objekte) {
        const propertyId = await propertyIdOf(tx, accountId, objekt);
        for (const interest of interests) {
          const key: PortalInquiryKey = { accountId, portal, portalInquiryId: portalInquiryId(propertyId, interest) };
          await holdPortalInquiry(tx, key);
          const knownId = await knownInquiryId(tx, key);
          if (knownId) {
            anfragen.set(knownId, await inquiries.get(accountId, knownId));
            continue;
          }
          const anfrage = await inquiries.create(
            accountId,
            {
              immobilie_id: propertyId,
              interessent_id: await prospectOf(tx, accountId, { portal: feedback.sender.trim(), objekt }, interest, at),
              nachricht: interest.nachricht,
            },
            feedback.sender.trim().slice(0, 100),
          );
          await rememberPortalInquiry(tx, key, anfrage.id, at);
          anfragen.set(anfrage.id, anfrage);
          created = true;
        }
      }
      return { created, anfragen: [...anfragen.values()] };
    });
  }

  return {
    /** An OpenImmo-Feedback document (the request's bytes). */
    importDocument: (accountId: string, bytes: Buffer) => importText(accountId, decodeXml(bytes)),
    /** A raw mail (RFC 822) with the document attached or inline. */
    importMail: async (accountId: string, raw: Buffer) => importText(accountId, await feedbackOfMail(raw)),
  };
}
