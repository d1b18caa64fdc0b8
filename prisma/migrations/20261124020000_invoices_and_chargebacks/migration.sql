-- CreateEnum
CREATE TYPE "InvoiceState" AS ENUM ('issued', 'paid');

-- AlterTable
ALTER TABLE "usage_records" ADD COLUMN     "settled_in" VARCHAR(7);

-- CreateTable
CREATE TABLE "agent_rates" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "unit" "ChargebackUnit" NOT NULL,
    "valid_from" TIMESTAMPTZ(3) NOT NULL,
    "valid_to" TIMESTAMPTZ(3),

    CONSTRAINT "agent_rates_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chargeback_runs" (
    "account_id" TEXT NOT NULL,
    "period" VARCHAR(7) NOT NULL,
    "period_start" TIMESTAMPTZ(3) NOT NULL,
    "period_end" TIMESTAMPTZ(3) NOT NULL,
    "records" INTEGER NOT NULL,
    "settlements" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chargeback_runs_pkey" PRIMARY KEY ("account_id","period")
);

-- CreateTable
CREATE TABLE "chargeback_settlements" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "period" VARCHAR(7) NOT NULL,
    "team" VARCHAR(120) NOT NULL,
    "net_cents" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chargeback_settlements_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chargeback_lines" (
    "id" TEXT NOT NULL,
    "settlement_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "account_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "usage_period" VARCHAR(7) NOT NULL,
    "late" BOOLEAN NOT NULL,
    "records" INTEGER NOT NULL,
    "quantity" DECIMAL(24,6) NOT NULL,
    "unit" "ChargebackUnit" NOT NULL,
    "rate_id" TEXT NOT NULL,
    "rate_amount_cents" INTEGER NOT NULL,
    "amount_cents" BIGINT NOT NULL,

    CONSTRAINT "chargeback_lines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "internal_invoices" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "settlement_id" TEXT NOT NULL,
    "team" VARCHAR(120) NOT NULL,
    "number" VARCHAR(20) NOT NULL,
    "issue_date" DATE NOT NULL,
    "period" VARCHAR(7) NOT NULL,
    "issuer" JSONB NOT NULL,
    "net_cents" BIGINT NOT NULL,
    "status" "DocumentStatus" NOT NULL DEFAULT 'generating',
    "sha256" VARCHAR(64),
    "size" INTEGER,
    "failure_reason" TEXT,
    "sweeps" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "internal_invoices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "billing_profiles" (
    "account_id" TEXT NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "street" VARCHAR(200) NOT NULL,
    "postal_code" VARCHAR(16) NOT NULL,
    "city" VARCHAR(120) NOT NULL,
    "country" CHAR(2) NOT NULL,
    "vat_id" VARCHAR(32),
    "tax_number" VARCHAR(32),
    "email" VARCHAR(200),
    "phone" VARCHAR(40),
    "contact" VARCHAR(200),
    "iban" VARCHAR(34),
    "bic" VARCHAR(11),
    "payment_terms_days" INTEGER NOT NULL DEFAULT 14,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "billing_profiles_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "invoices" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "settlement_id" TEXT NOT NULL,
    "party" VARCHAR(16) NOT NULL,
    "number" VARCHAR(20) NOT NULL,
    "issue_date" DATE NOT NULL,
    "service_date" DATE NOT NULL,
    "due_date" DATE,
    "due_after_invoice_id" TEXT,
    "payment_terms_days" INTEGER NOT NULL,
    "state" "InvoiceState" NOT NULL DEFAULT 'issued',
    "paid_on" DATE,
    "issuer" JSONB NOT NULL,
    "recipient" JSONB NOT NULL,
    "line" JSONB NOT NULL,
    "net_cents" BIGINT NOT NULL,
    "vat_rate_bp" INTEGER NOT NULL,
    "vat_cents" BIGINT NOT NULL,
    "gross_cents" BIGINT NOT NULL,
    "status" "DocumentStatus" NOT NULL DEFAULT 'generating',
    "sha256" VARCHAR(64),
    "size" INTEGER,
    "failure_reason" TEXT,
    "sweeps" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "invoices_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "agent_rates_agent_id_valid_from_idx" ON "agent_rates"("agent_id", "valid_from");

-- CreateIndex
CREATE INDEX "chargeback_settlements_account_id_created_at_id_idx" ON "chargeback_settlements"("account_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "chargeback_settlements_id_account_id_key" ON "chargeback_settlements"("id", "account_id");

-- CreateIndex
CREATE UNIQUE INDEX "chargeback_settlements_account_id_period_team_key" ON "chargeback_settlements"("account_id", "period", "team");

-- CreateIndex
CREATE UNIQUE INDEX "chargeback_lines_settlement_id_position_key" ON "chargeback_lines"("settlement_id", "position");

-- CreateIndex
CREATE INDEX "internal_invoices_account_id_created_at_id_idx" ON "internal_invoices"("account_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "internal_invoices_status_updated_at_idx" ON "internal_invoices"("status", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "internal_invoices_settlement_id_account_id_key" ON "internal_invoices"("settlement_id", "account_id");

-- CreateIndex
CREATE UNIQUE INDEX "internal_invoices_account_id_number_key" ON "internal_invoices"("account_id", "number");

-- CreateIndex
CREATE INDEX "invoices_account_id_created_at_id_idx" ON "invoices"("account_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "invoices_due_after_invoice_id_idx" ON "invoices"("due_after_invoice_id");

-- CreateIndex
CREATE INDEX "invoices_status_updated_at_idx" ON "invoices"("status", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "invoices_account_id_number_key" ON "invoices"("account_id", "number");

-- CreateIndex
CREATE UNIQUE INDEX "invoices_settlement_id_party_key" ON "invoices"("settlement_id", "party");

-- CreateIndex
CREATE INDEX "usage_records_account_id_settled_in_occurred_at_idx" ON "usage_records"("account_id", "settled_in", "occurred_at");

-- AddForeignKey
ALTER TABLE "agent_rates" ADD CONSTRAINT "agent_rates_agent_id_account_id_fkey" FOREIGN KEY ("agent_id", "account_id") REFERENCES "agent_deployments"("id", "account_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chargeback_runs" ADD CONSTRAINT "chargeback_runs_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chargeback_lines" ADD CONSTRAINT "chargeback_lines_settlement_id_fkey" FOREIGN KEY ("settlement_id") REFERENCES "chargeback_settlements"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chargeback_lines" ADD CONSTRAINT "chargeback_lines_agent_id_account_id_fkey" FOREIGN KEY ("agent_id", "account_id") REFERENCES "agent_deployments"("id", "account_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "internal_invoices" ADD CONSTRAINT "internal_invoices_settlement_id_account_id_fkey" FOREIGN KEY ("settlement_id", "account_id") REFERENCES "chargeback_settlements"("id", "account_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "billing_profiles" ADD CONSTRAINT "billing_profiles_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_settlement_id_account_id_fkey" FOREIGN KEY ("settlement_id", "account_id") REFERENCES "commission_settlements"("id", "account_id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Rate history: every existing agent's current rate, valid since the agent was created.
INSERT INTO "agent_rates" ("id", "account_id", "agent_id", "amount_cents", "unit", "valid_from")
SELECT 'rate_' || "id", "account_id", "id", "chargeback_amount_cents", "chargeback_unit", "created_at" FROM "agent_deployments";
