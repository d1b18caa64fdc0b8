-- Scheduling: viewing slots and appointments, evaluation sessions, the account's time zone; double booking refused by exclusion constraints (see prisma/schema/constraints.sql).

-- CreateEnum
CREATE TYPE "ScheduleStatus" AS ENUM ('proposed', 'confirmed', 'completed', 'cancelled');

-- CreateEnum
CREATE TYPE "ViewingSlotStatus" AS ENUM ('open', 'cancelled');

-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "time_zone" VARCHAR(64) NOT NULL DEFAULT 'Europe/Berlin';

-- CreateTable
CREATE TABLE "viewing_slots" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "property_id" TEXT NOT NULL,
    "host" VARCHAR(120),
    "capacity" INTEGER NOT NULL,
    "status" "ViewingSlotStatus" NOT NULL DEFAULT 'open',
    "starts_at" TIMESTAMPTZ(3) NOT NULL,
    "ends_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "viewing_slots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "appointments" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "property_id" TEXT NOT NULL,
    "inquiry_id" TEXT NOT NULL,
    "prospect_id" TEXT NOT NULL,
    "slot_id" TEXT,
    "host" VARCHAR(120),
    "status" "ScheduleStatus" NOT NULL DEFAULT 'proposed',
    "starts_at" TIMESTAMPTZ(3) NOT NULL,
    "ends_at" TIMESTAMPTZ(3) NOT NULL,
    "sequence" INTEGER NOT NULL DEFAULT 0,
    "history" JSONB NOT NULL DEFAULT '[]',
    "confirmed_by" VARCHAR(16),
    "confirmed_at" TIMESTAMPTZ(3),
    "cancelled_by" VARCHAR(16),
    "cancel_reason" VARCHAR(32),
    "cancelled_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "appointments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "evaluation_sessions" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "team" VARCHAR(120) NOT NULL,
    "access_request_id" TEXT,
    "evaluator_roles" TEXT[],
    "evaluator_count" INTEGER NOT NULL,
    "status" "ScheduleStatus" NOT NULL DEFAULT 'proposed',
    "starts_at" TIMESTAMPTZ(3) NOT NULL,
    "ends_at" TIMESTAMPTZ(3) NOT NULL,
    "sequence" INTEGER NOT NULL DEFAULT 0,
    "history" JSONB NOT NULL DEFAULT '[]',
    "confirmed_by" VARCHAR(16),
    "confirmed_at" TIMESTAMPTZ(3),
    "cancelled_by" VARCHAR(16),
    "cancel_reason" VARCHAR(32),
    "cancelled_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "evaluation_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "viewing_slots_account_id_property_id_starts_at_idx" ON "viewing_slots"("account_id", "property_id", "starts_at");

-- CreateIndex
CREATE INDEX "viewing_slots_account_id_created_at_id_idx" ON "viewing_slots"("account_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "viewing_slots_id_account_id_key" ON "viewing_slots"("id", "account_id");

-- CreateIndex
CREATE INDEX "appointments_account_id_created_at_id_idx" ON "appointments"("account_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "appointments_account_id_starts_at_idx" ON "appointments"("account_id", "starts_at");

-- CreateIndex
CREATE INDEX "appointments_account_id_property_id_status_idx" ON "appointments"("account_id", "property_id", "status");

-- CreateIndex
CREATE INDEX "appointments_prospect_id_idx" ON "appointments"("prospect_id");

-- CreateIndex
CREATE INDEX "appointments_slot_id_idx" ON "appointments"("slot_id");

-- CreateIndex
CREATE INDEX "evaluation_sessions_account_id_created_at_id_idx" ON "evaluation_sessions"("account_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "evaluation_sessions_account_id_starts_at_idx" ON "evaluation_sessions"("account_id", "starts_at");

-- CreateIndex
CREATE INDEX "evaluation_sessions_agent_id_status_idx" ON "evaluation_sessions"("agent_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "access_requests_id_account_id_key" ON "access_requests"("id", "account_id");

-- CreateIndex
CREATE UNIQUE INDEX "inquiries_id_account_id_key" ON "inquiries"("id", "account_id");

-- AddForeignKey
ALTER TABLE "viewing_slots" ADD CONSTRAINT "viewing_slots_property_id_account_id_fkey" FOREIGN KEY ("property_id", "account_id") REFERENCES "properties"("id", "account_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_property_id_account_id_fkey" FOREIGN KEY ("property_id", "account_id") REFERENCES "properties"("id", "account_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_inquiry_id_account_id_fkey" FOREIGN KEY ("inquiry_id", "account_id") REFERENCES "inquiries"("id", "account_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_slot_id_account_id_fkey" FOREIGN KEY ("slot_id", "account_id") REFERENCES "viewing_slots"("id", "account_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluation_sessions" ADD CONSTRAINT "evaluation_sessions_agent_id_account_id_fkey" FOREIGN KEY ("agent_id", "account_id") REFERENCES "agent_deployments"("id", "account_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluation_sessions" ADD CONSTRAINT "evaluation_sessions_access_request_id_account_id_fkey" FOREIGN KEY ("access_request_id", "account_id") REFERENCES "access_requests"("id", "account_id") ON DELETE CASCADE ON UPDATE CASCADE;


-- What Prisma cannot express (kept in prisma/schema/constraints.sql as well)
-- In a schema of its own: its types and functions are not the application's (the public schema holds only those).
CREATE SCHEMA IF NOT EXISTS "extensions";
CREATE EXTENSION IF NOT EXISTS btree_gist WITH SCHEMA "extensions";

ALTER TABLE "viewing_slots" ADD COLUMN "during" tstzrange GENERATED ALWAYS AS (tstzrange("starts_at", "ends_at", '[)')) STORED;
ALTER TABLE "appointments" ADD COLUMN "during" tstzrange GENERATED ALWAYS AS (tstzrange("starts_at", "ends_at", '[)')) STORED;
ALTER TABLE "evaluation_sessions" ADD COLUMN "during" tstzrange GENERATED ALWAYS AS (tstzrange("starts_at", "ends_at", '[)')) STORED;

-- A host's open slots never overlap.
ALTER TABLE "viewing_slots" ADD CONSTRAINT "viewing_slots_host_overlap"
  EXCLUDE USING gist ("account_id" WITH =, "host" WITH =, "during" WITH &&) WHERE ("status" = 'open' AND "host" IS NOT NULL);
-- A host's open appointments never overlap, except those of one slot (the slot is one visit).
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_host_overlap"
  EXCLUDE USING gist ("account_id" WITH =, "host" WITH =, (COALESCE("slot_id", "id")) WITH <>, "during" WITH &&)
  WHERE ("status" IN ('proposed', 'confirmed') AND "host" IS NOT NULL);
-- A prospect's open appointments never overlap.
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_prospect_overlap"
  EXCLUDE USING gist ("prospect_id" WITH =, "during" WITH &&) WHERE ("status" IN ('proposed', 'confirmed'));
-- An agent's open sessions never overlap, nor a team's.
ALTER TABLE "evaluation_sessions" ADD CONSTRAINT "evaluation_sessions_agent_overlap"
  EXCLUDE USING gist ("agent_id" WITH =, "during" WITH &&) WHERE ("status" IN ('proposed', 'confirmed'));
ALTER TABLE "evaluation_sessions" ADD CONSTRAINT "evaluation_sessions_team_overlap"
  EXCLUDE USING gist ("account_id" WITH =, "team" WITH =, "during" WITH &&) WHERE ("status" IN ('proposed', 'confirmed'));
