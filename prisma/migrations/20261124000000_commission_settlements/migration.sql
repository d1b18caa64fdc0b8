-- Commission settlements: who engaged the broker, letting commission in months, and the settlement with one line per paying party (integer cents).

-- CreateEnum
CREATE TYPE "CommissionEngagedBy" AS ENUM ('seller', 'buyer', 'both');

-- CreateEnum
CREATE TYPE "SettlementKind" AS ENUM ('sale', 'letting');

-- AlterTable
ALTER TABLE "properties" ADD COLUMN     "commission_buyer_is_consumer" BOOLEAN,
ADD COLUMN     "commission_engaged_by" "CommissionEngagedBy",
ADD COLUMN     "commission_landlord_months" DOUBLE PRECISION,
ADD COLUMN     "commission_tenant_months" DOUBLE PRECISION;

-- CreateTable
CREATE TABLE "commission_settlements" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "property_id" TEXT NOT NULL,
    "kind" "SettlementKind" NOT NULL,
    "rules_version" VARCHAR(32) NOT NULL,
    "regime" VARCHAR(32) NOT NULL,
    "transaction_date" DATE NOT NULL,
    "net_cents" BIGINT NOT NULL,
    "vat_cents" BIGINT NOT NULL,
    "gross_cents" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "commission_settlements_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "settlement_lines" (
    "id" TEXT NOT NULL,
    "settlement_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "party" VARCHAR(16) NOT NULL,
    "base_cents" BIGINT NOT NULL,
    "percent_milli" INTEGER,
    "months_hundredths" INTEGER,
    "net_cents" BIGINT NOT NULL,
    "vat_rate_bp" INTEGER NOT NULL,
    "vat_cents" BIGINT NOT NULL,
    "gross_cents" BIGINT NOT NULL,
    "due_after_party" VARCHAR(16),

    CONSTRAINT "settlement_lines_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "commission_settlements_account_id_created_at_id_idx" ON "commission_settlements"("account_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "commission_settlements_account_id_property_id_idx" ON "commission_settlements"("account_id", "property_id");

-- CreateIndex
CREATE UNIQUE INDEX "commission_settlements_id_account_id_key" ON "commission_settlements"("id", "account_id");

-- CreateIndex
CREATE UNIQUE INDEX "settlement_lines_settlement_id_position_key" ON "settlement_lines"("settlement_id", "position");

-- AddForeignKey
ALTER TABLE "commission_settlements" ADD CONSTRAINT "commission_settlements_property_id_account_id_fkey" FOREIGN KEY ("property_id", "account_id") REFERENCES "properties"("id", "account_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "settlement_lines" ADD CONSTRAINT "settlement_lines_settlement_id_fkey" FOREIGN KEY ("settlement_id") REFERENCES "commission_settlements"("id") ON DELETE CASCADE ON UPDATE CASCADE;

