-- AlterTable (as printed by tools/schema-sql, split so that existing inquiries take their creation time)
ALTER TABLE "inquiries" ADD COLUMN     "scored_at" TIMESTAMPTZ(3);
UPDATE "inquiries" SET "scored_at" = "created_at";
ALTER TABLE "inquiries" ALTER COLUMN "scored_at" SET NOT NULL;
