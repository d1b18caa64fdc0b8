-- What the Prisma schema cannot express, applied by the migrations and, in the drift test, after
-- the schema's own SQL: generated time ranges and the exclusion constraints against double booking.
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

-- The erasure log's closed vocabularies (migration 20261130030000_erasure_record_checks).
ALTER TABLE "erasure_records" ADD CONSTRAINT "erasure_records_kind_check"
  CHECK ("kind" IN ('erasure', 'anonymisation'));
ALTER TABLE "erasure_records" ADD CONSTRAINT "erasure_records_requested_by_check"
  CHECK (
    "requested_by" IN ('api_key', 'cli', 'retention')
    AND ("requested_by" = 'retention') = ("kind" = 'anonymisation')
    AND ("requested_by" = 'api_key') = ("application_id" IS NOT NULL AND "key_id" IS NOT NULL)
  );
