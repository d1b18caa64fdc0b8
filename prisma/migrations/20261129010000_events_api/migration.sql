-- The events API (GET /v1/events): an account's events of one service, newest first.
CREATE INDEX "outbox_events_account_id_service_created_at_id_idx" ON "outbox_events"("account_id", "service", "created_at", "id");
