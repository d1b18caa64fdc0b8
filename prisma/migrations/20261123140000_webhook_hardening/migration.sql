-- Webhook hardening: deleting an endpoint hides it at once and its history is removed in the
-- background; resuming marks held deliveries for the relay instead of re-queueing them in the
-- request; a delivery failed by the worker's own errors says why; test events are limited per
-- endpoint and minute.

-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "deleted_at" TIMESTAMPTZ(3),
ADD COLUMN     "test_sent_at" TIMESTAMPTZ(3)[] DEFAULT ARRAY[]::TIMESTAMPTZ(3)[];

-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "failure_reason" TEXT,
ADD COLUMN     "requeue_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "webhook_endpoints_deleted_at_idx" ON "webhook_endpoints"("deleted_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_requeue_at_idx" ON "webhook_deliveries"("requeue_at");
