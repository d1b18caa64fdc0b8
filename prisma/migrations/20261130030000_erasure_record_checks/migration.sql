-- The erasure log's closed vocabularies, held by the database (Prisma cannot express CHECK
-- constraints: the same lines are in prisma/schema/constraints.sql for the drift test).
ALTER TABLE "erasure_records" ADD CONSTRAINT "erasure_records_kind_check"
  CHECK ("kind" IN ('erasure', 'anonymisation'));
-- An anonymisation is by the retention rule, an erasure on request (an API key, with its
-- application and key, or the operator's CLI).
ALTER TABLE "erasure_records" ADD CONSTRAINT "erasure_records_requested_by_check"
  CHECK (
    "requested_by" IN ('api_key', 'cli', 'retention')
    AND ("requested_by" = 'retention') = ("kind" = 'anonymisation')
    AND ("requested_by" = 'api_key') = ("application_id" IS NOT NULL AND "key_id" IS NOT NULL)
  );
