-- Viewing-slot allocation: inquiries of a property by score, ties to the earlier one; a prospect's inquiries per property (replaces the index on prospect_id alone).

-- DropIndex
DROP INDEX "inquiries_prospect_id_idx";

-- CreateIndex
CREATE INDEX "inquiries_allocation_idx" ON "inquiries"("account_id", "property_id", "score" DESC, "created_at", "id");

-- CreateIndex
CREATE INDEX "inquiries_prospect_id_property_id_idx" ON "inquiries"("prospect_id", "property_id");

