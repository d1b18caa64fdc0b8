-- Gapless invoice numbers per account, series and year.

-- CreateTable
CREATE TABLE "invoice_counters" (
    "account_id" TEXT NOT NULL,
    "series" VARCHAR(32) NOT NULL,
    "year" INTEGER NOT NULL,
    "last" INTEGER NOT NULL,

    CONSTRAINT "invoice_counters_pkey" PRIMARY KEY ("account_id","series","year")
);

-- AddForeignKey
ALTER TABLE "invoice_counters" ADD CONSTRAINT "invoice_counters_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

