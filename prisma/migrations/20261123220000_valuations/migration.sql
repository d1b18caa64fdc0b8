-- Valuations: the final price of the account's own sales and lettings, and imported market transactions.

-- CreateEnum
CREATE TYPE "TransactionMarketing" AS ENUM ('sale', 'rent');

-- AlterTable
ALTER TABLE "properties" ADD COLUMN     "transaction_date" DATE,
ADD COLUMN     "transaction_price_assumed" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "transaction_price_eur" INTEGER;

-- CreateTable
CREATE TABLE "market_transactions" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "type" "PropertyType" NOT NULL,
    "marketing" "TransactionMarketing" NOT NULL,
    "postal_code" VARCHAR(5) NOT NULL,
    "living_area_sqm" DOUBLE PRECISION NOT NULL,
    "year_built" INTEGER,
    "price_eur" INTEGER NOT NULL,
    "date" DATE NOT NULL,
    "source_ref" VARCHAR(200) NOT NULL,
    "imported_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "market_transactions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "market_transactions_account_id_type_marketing_postal_code_d_idx" ON "market_transactions"("account_id", "type", "marketing", "postal_code", "date");

-- CreateIndex
CREATE INDEX "properties_account_id_type_address_postal_code_transaction__idx" ON "properties"("account_id", "type", "address_postal_code", "transaction_date");

-- AddForeignKey
ALTER TABLE "market_transactions" ADD CONSTRAINT "market_transactions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

