-- Property media and agent artifacts: files in blob storage, referenced by their SHA-256.

-- CreateEnum
CREATE TYPE "MediaKind" AS ENUM ('photo', 'floor_plan', 'document');

-- CreateEnum
CREATE TYPE "ArtifactKind" AS ENUM ('model_card', 'prompt', 'configuration', 'evaluation_report', 'other');

-- AlterTable
ALTER TABLE "agent_deployments" ADD COLUMN "artifact_count" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "property_media" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "property_id" TEXT NOT NULL,
    "kind" "MediaKind" NOT NULL,
    "title" VARCHAR(200),
    "position" INTEGER NOT NULL,
    "content_type" VARCHAR(100) NOT NULL,
    "size" INTEGER NOT NULL,
    "sha256" VARCHAR(64) NOT NULL,
    "filename" VARCHAR(200) NOT NULL,
    "width" INTEGER,
    "height" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "property_media_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_artifacts" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "kind" "ArtifactKind" NOT NULL,
    "title" VARCHAR(200),
    "version" VARCHAR(64),
    "content_type" VARCHAR(100) NOT NULL,
    "size" INTEGER NOT NULL,
    "sha256" VARCHAR(64) NOT NULL,
    "filename" VARCHAR(200) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_artifacts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "property_media_account_id_property_id_position_idx" ON "property_media"("account_id", "property_id", "position");

-- CreateIndex
CREATE INDEX "property_media_property_id_idx" ON "property_media"("property_id");

-- CreateIndex
CREATE INDEX "property_media_sha256_idx" ON "property_media"("sha256");

-- CreateIndex
CREATE INDEX "agent_artifacts_account_id_agent_id_created_at_id_idx" ON "agent_artifacts"("account_id", "agent_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "agent_artifacts_agent_id_idx" ON "agent_artifacts"("agent_id");

-- CreateIndex
CREATE INDEX "agent_artifacts_sha256_idx" ON "agent_artifacts"("sha256");

-- AddForeignKey
ALTER TABLE "property_media" ADD CONSTRAINT "property_media_property_id_account_id_fkey" FOREIGN KEY ("property_id", "account_id") REFERENCES "properties"("id", "account_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_artifacts" ADD CONSTRAINT "agent_artifacts_agent_id_account_id_fkey" FOREIGN KEY ("agent_id", "account_id") REFERENCES "agent_deployments"("id", "account_id") ON DELETE CASCADE ON UPDATE CASCADE;
