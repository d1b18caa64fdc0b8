-- CreateEnum
CREATE TYPE "Marketing" AS ENUM ('kauf', 'miete');

-- CreateTable
CREATE TABLE "prospects" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "vorname" TEXT,
    "nachname" TEXT,
    "email" TEXT,
    "telefon" TEXT,
    "einwilligung_zweck" TEXT,
    "einwilligung_erteilt_am" TIMESTAMPTZ(3),
    "has_profile" BOOLEAN NOT NULL DEFAULT false,
    "profil_aktiv" BOOLEAN NOT NULL DEFAULT false,
    "profil_vermarktung" "Marketing",
    "profil_typ" "PropertyType"[],
    "profil_orte" TEXT[],
    "profil_zimmer_min" DOUBLE PRECISION,
    "profil_kaufpreis_max" INTEGER,
    "profil_kaltmiete_max" INTEGER,
    "profil_wohnflaeche_min" DOUBLE PRECISION,
    "last_activity_at" TIMESTAMPTZ(3) NOT NULL,
    "retention_until" DATE NOT NULL,
    "anonymised_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "prospects_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "prospects_account_id_created_at_id_idx" ON "prospects"("account_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "prospects_account_id_profil_aktiv_created_at_idx" ON "prospects"("account_id", "profil_aktiv", "created_at" DESC);

-- CreateIndex
CREATE INDEX "prospects_retention_until_anonymised_at_idx" ON "prospects"("retention_until", "anonymised_at");

-- AddForeignKey
ALTER TABLE "prospects" ADD CONSTRAINT "prospects_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

