-- Bulk redeliveries of an endpoint (issue 35, item 2) and the owner's alerts when an endpoint
-- fails or is paused (item 3): who registered the endpoint, when its owner was last alerted.

-- CreateEnum
CREATE TYPE "WebhookRedeliveryStatus" AS ENUM ('running', 'completed');

-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "redelivery_id" TEXT;

-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "alerted_at" TIMESTAMPTZ(3),
ADD COLUMN     "application_id" TEXT;

-- CreateTable
CREATE TABLE "webhook_redeliveries" (
    "id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "since" TIMESTAMPTZ(3) NOT NULL,
    "until" TIMESTAMPTZ(3) NOT NULL,
    "selection" TEXT NOT NULL,
    "status" "WebhookRedeliveryStatus" NOT NULL DEFAULT 'running',
    "total" INTEGER NOT NULL,
    "queued" INTEGER NOT NULL DEFAULT 0,
    "cursor_created_at" TIMESTAMPTZ(3),
    "cursor_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_redeliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_redeliveries_status_updated_at_idx" ON "webhook_redeliveries"("status", "updated_at");

-- CreateIndex
CREATE INDEX "webhook_redeliveries_endpoint_id_created_at_idx" ON "webhook_redeliveries"("endpoint_id", "created_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_redelivery_id_status_idx" ON "webhook_deliveries"("redelivery_id", "status");

-- AddForeignKey
ALTER TABLE "webhook_redeliveries" ADD CONSTRAINT "webhook_redeliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;
