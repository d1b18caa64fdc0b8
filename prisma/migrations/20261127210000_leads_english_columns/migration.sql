-- The leads data model in English, like the rest of the code; the leads API keeps its German
-- field names and values on the wire (the mapping in apps/property-service/src/leads translates).
-- Renames only: no data is rewritten and no index is rebuilt.

-- AlterEnum
ALTER TYPE "Marketing" RENAME VALUE 'kauf' TO 'sale';
ALTER TYPE "Marketing" RENAME VALUE 'miete' TO 'rent';

-- AlterTable
ALTER TABLE "prospects" RENAME COLUMN "vorname" TO "first_name";
ALTER TABLE "prospects" RENAME COLUMN "nachname" TO "last_name";
ALTER TABLE "prospects" RENAME COLUMN "telefon" TO "phone";
ALTER TABLE "prospects" RENAME COLUMN "einwilligung_zweck" TO "consent_purpose";
ALTER TABLE "prospects" RENAME COLUMN "einwilligung_erteilt_am" TO "consent_given_at";
ALTER TABLE "prospects" RENAME COLUMN "profil_aktiv" TO "profile_active";
ALTER TABLE "prospects" RENAME COLUMN "profil_vermarktung" TO "profile_marketing";
ALTER TABLE "prospects" RENAME COLUMN "profil_typ" TO "profile_types";
ALTER TABLE "prospects" RENAME COLUMN "profil_orte" TO "profile_locations";
ALTER TABLE "prospects" RENAME COLUMN "profil_orte_norm" TO "profile_locations_norm";
ALTER TABLE "prospects" RENAME COLUMN "profil_zimmer_min" TO "profile_rooms_min";
ALTER TABLE "prospects" RENAME COLUMN "profil_kaufpreis_max" TO "profile_purchase_price_max";
ALTER TABLE "prospects" RENAME COLUMN "profil_kaltmiete_max" TO "profile_cold_rent_max";
ALTER TABLE "prospects" RENAME COLUMN "profil_wohnflaeche_min" TO "profile_living_area_min";

-- AlterTable
ALTER TABLE "inquiries" RENAME COLUMN "nachricht" TO "message";

-- RenameIndex
ALTER INDEX "prospects_account_id_profil_aktiv_created_at_idx" RENAME TO "prospects_account_id_profile_active_created_at_idx";
ALTER INDEX "prospects_profil_typ_idx" RENAME TO "prospects_profile_types_idx";
ALTER INDEX "prospects_account_id_profil_aktiv_profil_vermarktung_profil_idx" RENAME TO "prospects_account_id_profile_active_profile_marketing_profi_idx";
