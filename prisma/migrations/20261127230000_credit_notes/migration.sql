-- Credit notes (type 381) live beside the invoices they correct, with their own number series
-- (`KR-2026-000001`); an invoice is corrected at most once, in full.

-- AlterTable
ALTER TABLE "invoices" ADD COLUMN "type_code" VARCHAR(3) NOT NULL DEFAULT '380',
ADD COLUMN "corrects_invoice_id" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "invoices_corrects_invoice_id_key" ON "invoices"("corrects_invoice_id");

-- One invoice per paying party, and its credit note beside it.
DROP INDEX "invoices_settlement_id_party_key";
CREATE UNIQUE INDEX "invoices_settlement_id_party_type_code_key" ON "invoices"("settlement_id", "party", "type_code");
