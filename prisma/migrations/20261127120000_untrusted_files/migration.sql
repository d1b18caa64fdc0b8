-- Renditions: what is published of a photo or floor plan is a JPEG made from its decoded pixels.
-- AlterTable
ALTER TABLE "property_media" ADD COLUMN     "rendition_failure" TEXT;

-- CreateTable
CREATE TABLE "media_renditions" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "media_id" TEXT NOT NULL,
    "variant" VARCHAR(20) NOT NULL,
    "content_type" VARCHAR(100) NOT NULL,
    "size" INTEGER NOT NULL,
    "sha256" VARCHAR(64) NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "media_renditions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "media_renditions_media_id_variant_key" ON "media_renditions"("media_id", "variant");

-- CreateIndex
CREATE INDEX "media_renditions_sha256_idx" ON "media_renditions"("sha256");

-- AddForeignKey
ALTER TABLE "media_renditions" ADD CONSTRAINT "media_renditions_media_id_fkey" FOREIGN KEY ("media_id") REFERENCES "property_media"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A listing's media are its renditions, one row per variant; the rows of listings generated before
-- are the tenant's own bytes (`original`) and are never published.
-- AlterTable
ALTER TABLE "listing_media" ADD COLUMN     "variant" VARCHAR(20) NOT NULL DEFAULT 'original';
ALTER TABLE "listing_media" ALTER COLUMN "variant" DROP DEFAULT;

-- DropIndex
DROP INDEX "listing_media_listing_id_position_key";

-- CreateIndex
CREATE UNIQUE INDEX "listing_media_listing_id_position_variant_key" ON "listing_media"("listing_id", "position", "variant");

-- Generation runs that end their worker abnormally are counted; the second one fails the document.
-- AlterTable
ALTER TABLE "listings" ADD COLUMN     "render_lease_until" TIMESTAMPTZ(3),
ADD COLUMN     "abnormal_ends" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "catalog_entries" ADD COLUMN     "render_lease_until" TIMESTAMPTZ(3),
ADD COLUMN     "abnormal_ends" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "invoices" ADD COLUMN     "render_lease_until" TIMESTAMPTZ(3),
ADD COLUMN     "abnormal_ends" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "internal_invoices" ADD COLUMN     "render_lease_until" TIMESTAMPTZ(3),
ADD COLUMN     "abnormal_ends" INTEGER NOT NULL DEFAULT 0;
