-- Consent as a record with its history (GDPR Art. 7): one row per consent of a prospect, with
-- purpose, text version, source, double opt-in confirmation and withdrawal. Restriction
-- (Art. 18) and objection (Art. 21) of a prospect as times on the prospect.

-- CreateEnum
CREATE TYPE "ConsentPurpose" AS ENUM ('marketing', 'contact');

-- CreateEnum
CREATE TYPE "ConsentSource" AS ENUM ('website_form', 'portal', 'phone', 'in_person', 'other');

-- AlterTable
ALTER TABLE "prospects" ADD COLUMN     "marketing_consent_valid" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "objected_at" TIMESTAMPTZ(3),
ADD COLUMN     "restricted_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "prospect_consents" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "prospect_id" TEXT NOT NULL,
    "purpose" "ConsentPurpose" NOT NULL,
    "wording" TEXT,
    "text_version" TEXT,
    "source" "ConsentSource" NOT NULL,
    "requires_confirmation" BOOLEAN NOT NULL,
    "given_at" TIMESTAMPTZ(3) NOT NULL,
    "confirmed_at" TIMESTAMPTZ(3),
    "withdrawn_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "prospect_consents_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "prospect_consents_prospect_id_purpose_idx" ON "prospect_consents"("prospect_id", "purpose");

-- CreateIndex
CREATE INDEX "prospect_consents_account_id_prospect_id_created_at_id_idx" ON "prospect_consents"("account_id", "prospect_id", "created_at", "id");

-- AddForeignKey
ALTER TABLE "prospect_consents" ADD CONSTRAINT "prospect_consents_prospect_id_account_id_fkey" FOREIGN KEY ("prospect_id", "account_id") REFERENCES "prospects"("id", "account_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The consent of every prospect that has one becomes its first record: a marketing consent in
-- the old purpose's words, source `other`, no double opt-in (the old shape had none), so the
-- prospects matched before are matched after.
INSERT INTO "prospect_consents" ("id", "account_id", "prospect_id", "purpose", "wording", "source", "requires_confirmation", "given_at", "created_at")
SELECT 'ein_' || substr("id", 5), "account_id", "id", 'marketing', "consent_purpose", 'other', false, "consent_given_at", "created_at"
FROM "prospects" WHERE "consent_given_at" IS NOT NULL AND "anonymised_at" IS NULL;

UPDATE "prospects" SET "marketing_consent_valid" = true WHERE "consent_given_at" IS NOT NULL AND "anonymised_at" IS NULL;
