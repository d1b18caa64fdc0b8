-- CreateEnum
CREATE TYPE "PortalProtocol" AS ENUM ('sftp', 'ftp', 'ftps');

-- CreateEnum
CREATE TYPE "PortalTransferMode" AS ENUM ('teil', 'voll');

-- CreateEnum
CREATE TYPE "PortalObjectAction" AS ENUM ('CHANGE', 'DELETE');

-- CreateEnum
CREATE TYPE "PortalTransferState" AS ENUM ('pending', 'transferred', 'failed');

-- AlterEnum
ALTER TYPE "ChannelType" ADD VALUE 'portal';

-- CreateTable
CREATE TABLE "portal_accounts" (
    "channel_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "protocol" "PortalProtocol" NOT NULL,
    "host" VARCHAR(253) NOT NULL,
    "port" INTEGER NOT NULL,
    "username" VARCHAR(200) NOT NULL,
    "secret_encrypted" TEXT NOT NULL,
    "folder" VARCHAR(500) NOT NULL,
    "anbieternr" VARCHAR(50) NOT NULL,
    "mode" "PortalTransferMode" NOT NULL DEFAULT 'teil',
    "host_key_fingerprint" VARCHAR(100),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "portal_accounts_pkey" PRIMARY KEY ("channel_id")
);

-- CreateTable
CREATE TABLE "portal_objects" (
    "channel_id" TEXT NOT NULL,
    "property_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "listing_id" TEXT NOT NULL,
    "action" "PortalObjectAction" NOT NULL,
    "state" "PortalTransferState" NOT NULL DEFAULT 'pending',
    "reason" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "last_transfer_id" TEXT,
    "transferred_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "portal_objects_pkey" PRIMARY KEY ("channel_id","property_id")
);

-- CreateTable
CREATE TABLE "portal_schedules" (
    "channel_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "full_requested" BOOLEAN NOT NULL DEFAULT true,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "halted_reason" TEXT,
    "lease_until" TIMESTAMPTZ(3),
    "sequence" INTEGER NOT NULL DEFAULT 0,
    "generation" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "portal_schedules_pkey" PRIMARY KEY ("channel_id")
);

-- CreateTable
CREATE TABLE "portal_transfers" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "umfang" VARCHAR(4) NOT NULL,
    "state" "PortalTransferState" NOT NULL,
    "file_name" VARCHAR(200) NOT NULL,
    "objects" INTEGER NOT NULL,
    "bytes" BIGINT,
    "reason" TEXT,
    "attempt" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "portal_transfers_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "portal_objects_channel_id_state_idx" ON "portal_objects"("channel_id", "state");

-- CreateIndex
CREATE INDEX "portal_objects_account_id_listing_id_idx" ON "portal_objects"("account_id", "listing_id");

-- CreateIndex
CREATE INDEX "portal_schedules_next_attempt_at_idx" ON "portal_schedules"("next_attempt_at");

-- CreateIndex
CREATE INDEX "portal_transfers_channel_id_started_at_id_idx" ON "portal_transfers"("channel_id", "started_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "portal_transfers_id_account_id_key" ON "portal_transfers"("id", "account_id");

-- AddForeignKey
ALTER TABLE "portal_accounts" ADD CONSTRAINT "portal_accounts_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "channels"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "portal_objects" ADD CONSTRAINT "portal_objects_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "channels"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "portal_schedules" ADD CONSTRAINT "portal_schedules_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "channels"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "portal_transfers" ADD CONSTRAINT "portal_transfers_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "channels"("id") ON DELETE CASCADE ON UPDATE CASCADE;

