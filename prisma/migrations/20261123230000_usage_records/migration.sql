-- Usage of agents per consuming team (chargebacks, cost estimates).

-- CreateTable
CREATE TABLE "usage_records" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "client_id" VARCHAR(100) NOT NULL,
    "team" VARCHAR(120) NOT NULL,
    "quantity" DECIMAL(18,6) NOT NULL,
    "unit" "ChargebackUnit" NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "usage_records_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "usage_records_account_id_agent_id_occurred_at_idx" ON "usage_records"("account_id", "agent_id", "occurred_at");

-- CreateIndex
CREATE INDEX "usage_records_account_id_team_occurred_at_idx" ON "usage_records"("account_id", "team", "occurred_at");

-- CreateIndex
CREATE UNIQUE INDEX "usage_records_agent_id_client_id_key" ON "usage_records"("agent_id", "client_id");

-- AddForeignKey
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_agent_id_account_id_fkey" FOREIGN KEY ("agent_id", "account_id") REFERENCES "agent_deployments"("id", "account_id") ON DELETE CASCADE ON UPDATE CASCADE;

