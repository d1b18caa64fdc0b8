-- The fingerprints of the secrets every instance must share (API_KEY_PEPPER, WEBHOOK_SECRET_KEY):
-- the first process to start records them, every later one compares and refuses to start on a
-- difference. A fingerprint is an HMAC keyed with the secret, never the secret.

-- CreateTable
CREATE TABLE "secret_fingerprints" (
    "name" VARCHAR(64) NOT NULL,
    "fingerprint" VARCHAR(64) NOT NULL,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "secret_fingerprints_pkey" PRIMARY KEY ("name")
);
