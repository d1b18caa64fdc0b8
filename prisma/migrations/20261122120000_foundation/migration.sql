-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Service" AS ENUM ('property', 'agents');

-- CreateEnum
CREATE TYPE "Environment" AS ENUM ('sandbox', 'production');

-- CreateEnum
CREATE TYPE "PropertyType" AS ENUM ('apartment', 'house', 'land', 'commercial', 'parking');

-- CreateEnum
CREATE TYPE "PropertyStatus" AS ENUM ('draft', 'active', 'reserved', 'sold', 'rented', 'archived');

-- CreateEnum
CREATE TYPE "LocationPrecision" AS ENUM ('exact', 'street', 'neighborhood');

-- CreateEnum
CREATE TYPE "EnergyCertificateType" AS ENUM ('consumption', 'demand');

-- CreateEnum
CREATE TYPE "EfficiencyClass" AS ENUM ('A+', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H');

-- CreateEnum
CREATE TYPE "EnergyExemption" AS ENUM ('heritage_protection', 'small_building');

-- CreateEnum
CREATE TYPE "AgentStatus" AS ENUM ('active', 'retired');

-- CreateEnum
CREATE TYPE "ChargebackUnit" AS ENUM ('per_request', 'per_1k_tokens', 'per_hour', 'per_month');

-- CreateTable
CREATE TABLE "accounts" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "applications" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "service" "Service" NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "applications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "application_id" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "key_hash" TEXT NOT NULL,
    "display_prefix" TEXT NOT NULL,
    "scopes" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "properties" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "status" "PropertyStatus" NOT NULL DEFAULT 'draft',
    "type" "PropertyType" NOT NULL,
    "title" VARCHAR(120) NOT NULL,
    "description" TEXT,
    "address_street" TEXT,
    "address_postal_code" VARCHAR(5) NOT NULL,
    "address_city" TEXT NOT NULL,
    "address_country" TEXT NOT NULL DEFAULT 'US',
    "address_location_precision" "LocationPrecision" NOT NULL DEFAULT 'street',
    "living_area_sqm" DOUBLE PRECISION,
    "lot_size_sqm" DOUBLE PRECISION,
    "rooms" DOUBLE PRECISION,
    "year_built" INTEGER,
    "floor" INTEGER,
    "purchase_price_eur" INTEGER,
    "cold_rent_eur" INTEGER,
    "service_charges_eur" INTEGER,
    "available_from" DATE,
    "energy_type" "EnergyCertificateType",
    "energy_final_demand_kwh" DOUBLE PRECISION,
    "energy_source" TEXT,
    "energy_system_year" INTEGER,
    "energy_efficiency_class" "EfficiencyClass",
    "energy_valid_until" DATE,
    "energy_exemption" "EnergyExemption",
    "commission_buyer_percent" DOUBLE PRECISION,
    "commission_seller_percent" DOUBLE PRECISION,
    "commission_note" TEXT,
    "media_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "properties_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_deployments" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "status" "AgentStatus" NOT NULL DEFAULT 'active',
    "name" VARCHAR(120) NOT NULL,
    "description" TEXT,
    "owning_team" VARCHAR(120) NOT NULL,
    "capabilities" TEXT[],
    "chargeback_amount_cents" INTEGER NOT NULL,
    "chargeback_unit" "ChargebackUnit" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retired_at" TIMESTAMPTZ(3),

    CONSTRAINT "agent_deployments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "applications_account_id_idx" ON "applications"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_application_id_idx" ON "api_keys"("application_id");

-- CreateIndex
CREATE INDEX "properties_account_id_created_at_id_idx" ON "properties"("account_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "properties_account_id_status_created_at_idx" ON "properties"("account_id", "status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "agent_deployments_account_id_created_at_id_idx" ON "agent_deployments"("account_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "agent_deployments_account_id_status_created_at_idx" ON "agent_deployments"("account_id", "status", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "applications" ADD CONSTRAINT "applications_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "properties" ADD CONSTRAINT "properties_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_deployments" ADD CONSTRAINT "agent_deployments_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

