import type { Db, Prisma } from '@platform/db';

/** The key of a portal's inquiry in an account. */
export interface PortalInquiryKey {
  accountId: string;
  portal: string;
  portalInquiryId: string;
}

/**
 * Holds the key until the transaction ends: the same inquiry sent twice at once is created once,
 * the second import waits and then finds it.
 */
export async function holdPortalInquiry(tx: Db, key: PortalInquiryKey): Promise<void> {
  const name = `portal_inquiries:${key.accountId}:${key.portal}:${key.portalInquiryId}`;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${name}, 0))`;
}

/** Our inquiry for the portal's inquiry id, if it came before. */
export async function knownInquiryId(db: Db, key: PortalInquiryKey): Promise<string | null> {
  const row = await db.portalInquiry.findUnique({
    where: {
      account_id_portal_portal_inquiry_id: {
        account_id: key.accountId,
        portal: key.portal,
        portal_inquiry_id: key.portalInquiryId,
      },
    },
    select: { inquiry_id: true },
  });
  return row?.inquiry_id ?? null;
}

/** Remembers which inquiry the portal's inquiry became. */
export async function rememberPortalInquiry(tx: Db, key: PortalInquiryKey, inquiryId: string, at: Date): Promise<void> {
  await tx.portalInquiry.create({
    data: {
      account_id: key.accountId,
      portal: key.portal,
      portal_inquiry_id: key.portalInquiryId,
      inquiry_id: inquiryId,
      created_at: at,
    },
  });
}

/**
 * The account's prospect with this e-mail address, compared without regard to case (the oldest
 * when several share it); anonymised prospects have none.
 */
export async function prospectIdByEmail(db: Db, accountId: string, email: string): Promise<string | null> {
  const row = await db.prospect.findFirst({
    where: { account_id: accountId, email: { equals: email, mode: 'insensitive' }, anonymised_at: null },
    orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
    select: { id: true },
  });
  return row?.id ?? null;
}

/**
 * A new prospect of a portal inquiry. Its consent is a record of its own (source `portal`, given
 * by the consent service), not the declared marketing consent a prospect made by the API gets.
 */
export function insertPortalProspect(tx: Db, data: Prisma.ProspectUncheckedCreateInput) {
  return tx.prospect.create({ data, select: { id: true } });
}
