-- CreateIndex
CREATE INDEX "properties_account_id_status_type_idx" ON "properties"("account_id", "status", "type");

-- CreateIndex
CREATE INDEX "prospects_profil_typ_idx" ON "prospects" USING GIN ("profil_typ");

-- CreateIndex
CREATE INDEX "prospects_account_id_profil_aktiv_profil_vermarktung_profil_idx" ON "prospects"("account_id", "profil_aktiv", "profil_vermarktung", "profil_kaufpreis_max");

