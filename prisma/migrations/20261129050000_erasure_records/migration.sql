-- Proof of erasure (issue 37): one record per erasure or nightly anonymisation of a prospect, with
-- ids, times and counts only. No foreign keys: the proof outlives what it speaks of.

-- CreateTable
CREATE TABLE "erasure_records" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "prospect_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "requested_by" TEXT NOT NULL,
    "application_id" TEXT,
    "key_id" TEXT,
    "inquiries_count" INTEGER NOT NULL,
    "appointments_count" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "reapplied_at" TIMESTAMPTZ(3),

    CONSTRAINT "erasure_records_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "erasure_records_account_id_created_at_id_idx" ON "erasure_records"("account_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "erasure_records_kind_created_at_idx" ON "erasure_records"("kind", "created_at" DESC);
