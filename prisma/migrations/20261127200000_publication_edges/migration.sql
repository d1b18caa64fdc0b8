-- Addresses at their precision: the house number apart from the street. Rows written before are
-- split by the application when read (the column stays NULL until their next update).
ALTER TABLE "properties" ADD COLUMN     "address_house_number" VARCHAR(40);

-- An account's default country for properties whose address names none.
ALTER TABLE "accounts" ADD COLUMN     "default_country" CHAR(2) NOT NULL DEFAULT 'US';

-- The agency's business contact of a channel (OpenImmo kontaktperson).
ALTER TABLE "channels" ADD COLUMN     "contact_name" VARCHAR(200),
ADD COLUMN     "contact_company" VARCHAR(200),
ADD COLUMN     "contact_email" VARCHAR(200),
ADD COLUMN     "contact_phone" VARCHAR(40);
