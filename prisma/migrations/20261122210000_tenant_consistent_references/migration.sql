-- DropForeignKey
ALTER TABLE "inquiries" DROP CONSTRAINT "inquiries_property_id_fkey";

-- DropForeignKey
ALTER TABLE "inquiries" DROP CONSTRAINT "inquiries_prospect_id_fkey";

-- DropForeignKey
ALTER TABLE "access_requests" DROP CONSTRAINT "access_requests_agent_id_fkey";

-- DropForeignKey
ALTER TABLE "access_requests" DROP CONSTRAINT "access_requests_profile_id_fkey";

-- CreateIndex
CREATE UNIQUE INDEX "properties_id_account_id_key" ON "properties"("id", "account_id");

-- CreateIndex
CREATE UNIQUE INDEX "agent_deployments_id_account_id_key" ON "agent_deployments"("id", "account_id");

-- CreateIndex
CREATE UNIQUE INDEX "prospects_id_account_id_key" ON "prospects"("id", "account_id");

-- CreateIndex
CREATE UNIQUE INDEX "capability_profiles_id_account_id_key" ON "capability_profiles"("id", "account_id");

-- AddForeignKey
ALTER TABLE "inquiries" ADD CONSTRAINT "inquiries_property_id_account_id_fkey" FOREIGN KEY ("property_id", "account_id") REFERENCES "properties"("id", "account_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inquiries" ADD CONSTRAINT "inquiries_prospect_id_account_id_fkey" FOREIGN KEY ("prospect_id", "account_id") REFERENCES "prospects"("id", "account_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "access_requests" ADD CONSTRAINT "access_requests_agent_id_account_id_fkey" FOREIGN KEY ("agent_id", "account_id") REFERENCES "agent_deployments"("id", "account_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "access_requests" ADD CONSTRAINT "access_requests_profile_id_account_id_fkey" FOREIGN KEY ("profile_id", "account_id") REFERENCES "capability_profiles"("id", "account_id") ON DELETE CASCADE ON UPDATE CASCADE;

