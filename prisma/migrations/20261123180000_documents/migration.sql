-- Documents and publication: listings (PDF exposé, media as they were, per-channel publication) and catalog entries.

-- CreateEnum
CREATE TYPE "DocumentStatus" AS ENUM ('generating', 'completed', 'failed', 'published', 'withdrawn');

-- CreateEnum
CREATE TYPE "PublicationState" AS ENUM ('pending', 'live', 'failed', 'withdrawn');

-- CreateEnum
CREATE TYPE "ChannelType" AS ENUM ('website', 'openimmo');

-- CreateTable
CREATE TABLE "catalog_entries" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "status" "DocumentStatus" NOT NULL DEFAULT 'generating',
    "snapshot" JSONB NOT NULL,
    "capabilities" TEXT[],
    "data_classification" "DataClassification" NOT NULL,
    "version" INTEGER NOT NULL,
    "record_url" TEXT NOT NULL,
    "sha256" VARCHAR(64),
    "size" INTEGER,
    "failure_reason" TEXT,
    "sweeps" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "catalog_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "listings" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "property_id" TEXT NOT NULL,
    "status" "DocumentStatus" NOT NULL DEFAULT 'generating',
    "snapshot" JSONB NOT NULL,
    "pdf_url" TEXT NOT NULL,
    "sha256" VARCHAR(64),
    "size" INTEGER,
    "failure_reason" TEXT,
    "sweeps" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "listings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "listing_media" (
    "id" TEXT NOT NULL,
    "listing_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "account_id" TEXT NOT NULL,
    "media_id" TEXT NOT NULL,
    "kind" "MediaKind" NOT NULL,
    "title" VARCHAR(200),
    "content_type" VARCHAR(100) NOT NULL,
    "size" INTEGER NOT NULL,
    "sha256" VARCHAR(64) NOT NULL,
    "width" INTEGER,
    "height" INTEGER,

    CONSTRAINT "listing_media_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "channels" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "type" "ChannelType" NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "feed_token" VARCHAR(64) NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "channels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "listing_publications" (
    "listing_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "state" "PublicationState" NOT NULL DEFAULT 'pending',
    "reason" TEXT,
    "live_at" TIMESTAMPTZ(3),
    "withdrawn_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "listing_publications_pkey" PRIMARY KEY ("listing_id","channel_id")
);

-- CreateIndex
CREATE INDEX "catalog_entries_account_id_created_at_id_idx" ON "catalog_entries"("account_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "catalog_entries_account_id_status_published_at_idx" ON "catalog_entries"("account_id", "status", "published_at" DESC);

-- CreateIndex
CREATE INDEX "catalog_entries_status_updated_at_idx" ON "catalog_entries"("status", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "catalog_entries_agent_id_version_key" ON "catalog_entries"("agent_id", "version");

-- CreateIndex
CREATE INDEX "listings_account_id_created_at_id_idx" ON "listings"("account_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "listings_account_id_property_id_created_at_idx" ON "listings"("account_id", "property_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "listings_status_updated_at_idx" ON "listings"("status", "updated_at");

-- CreateIndex
CREATE UNIQUE INDEX "listings_id_account_id_key" ON "listings"("id", "account_id");

-- CreateIndex
CREATE INDEX "listing_media_sha256_idx" ON "listing_media"("sha256");

-- CreateIndex
CREATE UNIQUE INDEX "listing_media_listing_id_position_key" ON "listing_media"("listing_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "channels_feed_token_key" ON "channels"("feed_token");

-- CreateIndex
CREATE INDEX "channels_account_id_created_at_id_idx" ON "channels"("account_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "channels_account_id_name_key" ON "channels"("account_id", "name");

-- CreateIndex
CREATE INDEX "listing_publications_channel_id_state_idx" ON "listing_publications"("channel_id", "state");

-- AddForeignKey
ALTER TABLE "catalog_entries" ADD CONSTRAINT "catalog_entries_agent_id_account_id_fkey" FOREIGN KEY ("agent_id", "account_id") REFERENCES "agent_deployments"("id", "account_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "listings" ADD CONSTRAINT "listings_property_id_account_id_fkey" FOREIGN KEY ("property_id", "account_id") REFERENCES "properties"("id", "account_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "listing_media" ADD CONSTRAINT "listing_media_listing_id_fkey" FOREIGN KEY ("listing_id") REFERENCES "listings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "channels" ADD CONSTRAINT "channels_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "listing_publications" ADD CONSTRAINT "listing_publications_listing_id_fkey" FOREIGN KEY ("listing_id") REFERENCES "listings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "listing_publications" ADD CONSTRAINT "listing_publications_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "channels"("id") ON DELETE CASCADE ON UPDATE CASCADE;

