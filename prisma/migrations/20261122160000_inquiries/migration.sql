-- CreateTable
CREATE TABLE "inquiries" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "property_id" TEXT NOT NULL,
    "prospect_id" TEXT NOT NULL,
    "nachricht" TEXT,
    "score" INTEGER NOT NULL,
    "weights_version" TEXT NOT NULL,
    "score_details" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inquiries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "inquiries_account_id_property_id_score_created_at_id_idx" ON "inquiries"("account_id", "property_id", "score" DESC, "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "inquiries_account_id_score_created_at_id_idx" ON "inquiries"("account_id", "score" DESC, "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "inquiries_prospect_id_idx" ON "inquiries"("prospect_id");

-- AddForeignKey
ALTER TABLE "inquiries" ADD CONSTRAINT "inquiries_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inquiries" ADD CONSTRAINT "inquiries_property_id_fkey" FOREIGN KEY ("property_id") REFERENCES "properties"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inquiries" ADD CONSTRAINT "inquiries_prospect_id_fkey" FOREIGN KEY ("prospect_id") REFERENCES "prospects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

