-- Erasure and anonymisation remove a prospect's outreach announcements (the primary key starts with the property).
CREATE INDEX "outreach_announcements_account_id_prospect_id_idx" ON "outreach_announcements"("account_id", "prospect_id");
