-- CreateEnum
CREATE TYPE "DataClassification" AS ENUM ('public', 'internal', 'confidential', 'restricted');

-- AlterTable
ALTER TABLE "agent_deployments" ADD COLUMN     "data_classification" "DataClassification" NOT NULL DEFAULT 'internal';

-- CreateTable
CREATE TABLE "capability_profiles" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "team" VARCHAR(120) NOT NULL,
    "name" VARCHAR(120) NOT NULL,
    "required_capabilities" TEXT[],
    "data_classification" "DataClassification" NOT NULL,
    "budget_monthly_cents" INTEGER NOT NULL,
    "usage_quantity" INTEGER NOT NULL,
    "usage_unit" "ChargebackUnit" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "capability_profiles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "access_requests" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "profile_id" TEXT NOT NULL,
    "team" VARCHAR(120) NOT NULL,
    "purpose" TEXT NOT NULL,
    "score" INTEGER NOT NULL,
    "weights_version" TEXT NOT NULL,
    "score_details" JSONB NOT NULL,
    "scored_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "access_requests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "capability_profiles_account_id_created_at_id_idx" ON "capability_profiles"("account_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "capability_profiles_account_id_team_created_at_id_idx" ON "capability_profiles"("account_id", "team", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "access_requests_account_id_score_created_at_id_idx" ON "access_requests"("account_id", "score" DESC, "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "access_requests_account_id_agent_id_score_created_at_id_idx" ON "access_requests"("account_id", "agent_id", "score" DESC, "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "access_requests_account_id_team_score_created_at_id_idx" ON "access_requests"("account_id", "team", "score" DESC, "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "access_requests_agent_id_idx" ON "access_requests"("agent_id");

-- CreateIndex
CREATE INDEX "access_requests_profile_id_idx" ON "access_requests"("profile_id");

-- AddForeignKey
ALTER TABLE "capability_profiles" ADD CONSTRAINT "capability_profiles_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "access_requests" ADD CONSTRAINT "access_requests_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "access_requests" ADD CONSTRAINT "access_requests_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agent_deployments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "access_requests" ADD CONSTRAINT "access_requests_profile_id_fkey" FOREIGN KEY ("profile_id") REFERENCES "capability_profiles"("id") ON DELETE CASCADE ON UPDATE CASCADE;

