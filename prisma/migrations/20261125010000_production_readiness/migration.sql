-- AlterTable
ALTER TABLE "applications" ADD COLUMN     "owner_email" VARCHAR(254),
ADD COLUMN     "rate_limit_per_minute" INTEGER;

-- CreateTable
CREATE TABLE "application_api_calls" (
    "application_id" TEXT NOT NULL,
    "api_version" VARCHAR(32) NOT NULL,
    "last_called_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "application_api_calls_pkey" PRIMARY KEY ("application_id","api_version")
);

-- CreateTable
CREATE TABLE "idempotency_keys" (
    "application_id" TEXT NOT NULL,
    "key" VARCHAR(255) NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "response_status" INTEGER,
    "response_headers" JSONB,
    "response_body" BYTEA,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("application_id","key")
);

-- CreateIndex
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys"("created_at");

-- AddForeignKey
ALTER TABLE "application_api_calls" ADD CONSTRAINT "application_api_calls_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE CASCADE;

