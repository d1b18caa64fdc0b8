-- An invoice names its property itself (it is immutable once issued), so reading an invoice no
-- longer reads the settlements table along: one owner per table.

-- AlterTable
ALTER TABLE "invoices" ADD COLUMN "property_id" TEXT;
UPDATE "invoices" i SET "property_id" = s."property_id" FROM "commission_settlements" s WHERE s."id" = i."settlement_id";
ALTER TABLE "invoices" ALTER COLUMN "property_id" SET NOT NULL;
