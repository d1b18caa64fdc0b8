-- Outreach on change (Treffer): per-account settings, the job outbox of outreach runs written with
-- the property change, the announced pairs (unique per offer price) and the daily counters.

-- CreateTable
CREATE TABLE "outreach_settings" (
    "account_id" TEXT NOT NULL,
    "threshold" INTEGER NOT NULL,
    "daily_limit" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "outreach_settings_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "outreach_runs" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "property_id" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),
    "announced" INTEGER NOT NULL DEFAULT 0,
    "dropped" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "outreach_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outreach_announcements" (
    "account_id" TEXT NOT NULL,
    "property_id" TEXT NOT NULL,
    "prospect_id" TEXT NOT NULL,
    "change_key" TEXT NOT NULL,
    "run_id" TEXT NOT NULL,
    "score" INTEGER NOT NULL,
    "announced" BOOLEAN NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "outreach_announcements_pkey" PRIMARY KEY ("account_id","property_id","prospect_id","change_key")
);

-- CreateTable
CREATE TABLE "outreach_daily_counts" (
    "account_id" TEXT NOT NULL,
    "prospect_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "announced" INTEGER NOT NULL,

    CONSTRAINT "outreach_daily_counts_pkey" PRIMARY KEY ("account_id","prospect_id","day")
);

-- CreateIndex
CREATE INDEX "outreach_runs_completed_at_created_at_idx" ON "outreach_runs"("completed_at", "created_at");

-- CreateIndex
CREATE INDEX "outreach_announcements_run_id_idx" ON "outreach_announcements"("run_id");

-- CreateIndex
CREATE INDEX "outreach_daily_counts_day_idx" ON "outreach_daily_counts"("day");
