-- AlterTable
ALTER TABLE "inquiries" ADD COLUMN "source" VARCHAR(100);

-- CreateTable
CREATE TABLE "portal_inquiries" (
    "account_id" TEXT NOT NULL,
    "portal" TEXT NOT NULL,
    "portal_inquiry_id" TEXT NOT NULL,
    "inquiry_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "portal_inquiries_pkey" PRIMARY KEY ("account_id","portal","portal_inquiry_id")
);

-- CreateIndex
CREATE INDEX "portal_inquiries_inquiry_id_account_id_idx" ON "portal_inquiries"("inquiry_id", "account_id");

-- AddForeignKey
ALTER TABLE "portal_inquiries" ADD CONSTRAINT "portal_inquiries_inquiry_id_account_id_fkey" FOREIGN KEY ("inquiry_id", "account_id") REFERENCES "inquiries"("id", "account_id") ON DELETE CASCADE ON UPDATE CASCADE;

