-- Key roll with expiry: a rolled key keeps working until `expires_at`, then is refused like a
-- revoked one; `rolled_into_id` names its successor; `age_notice_sent_at` records the one notice
-- to the application's owner when the key turned 90 days old.

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "age_notice_sent_at" TIMESTAMPTZ(3),
ADD COLUMN     "expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "rolled_into_id" TEXT;
