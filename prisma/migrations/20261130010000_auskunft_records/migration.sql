-- Proof of access requests (issue 37): one record per export of a prospect's data (Auskunft), with
-- ids, times and the format only. No foreign keys: the proof outlives the prospect's personal data.

-- CreateTable
CREATE TABLE "auskunft_records" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "prospect_id" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "application_id" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "auskunft_records_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "auskunft_records_account_id_created_at_id_idx" ON "auskunft_records"("account_id", "created_at" DESC, "id" DESC);
