import type { Prisma } from '@platform/db';
import type { EFFICIENCY_CLASSES, Property, PropertyInput } from './schemas.js';
import { houseNumberOf } from '../street.js';

type Row = Prisma.PropertyGetPayload<object>;
export type Columns = Omit<
  Prisma.PropertyUncheckedCreateInput,
  | 'id'
  | 'account_id'
  | 'status'
  | 'media_count'
  | 'created_at'
  | 'updated_at'
  | 'transaction_price_eur'
  | 'transaction_date'
  | 'transaction_price_assumed'
>;
type EfficiencyClass = NonNullable<Row['energy_efficiency_class']>;

const toDate = (value: string | undefined) => (value === undefined ? null : new Date(`${value}T00:00:00Z`));
const fromDate = (value: Date | null) => (value === null ? null : value.toISOString().slice(0, 10));
const toClass = (value: string | undefined) =>
  value === undefined ? null : ((value === 'A+' ? 'A_PLUS' : value) as EfficiencyClass);
const fromClass = (value: EfficiencyClass | null): (typeof EFFICIENCY_CLASSES)[number] | null =>
  value === null ? null : value === 'A_PLUS' ? 'A+' : value;

/**
 * The columns a complete input sets. Absent optional fields become NULL, so writing the result
 * of a merge patch clears what the patch removed; a country left out is the account's default.
 */
export function toColumns(input: PropertyInput, defaultCountry = 'US'): Columns {
  const energy = input.energy_certificate ?? {};
  const commission = input.commission ?? {};
  return {
    type: input.type,
    title: input.title,
    description: input.description ?? null,
    address_street: input.address.street ?? null,
    address_house_number: houseNumberOf(input.address.street, input.address.house_number),
    address_postal_code: input.address.postal_code,
    address_city: input.address.city,
    address_country: input.address.country ?? defaultCountry,
    address_location_precision: input.address.location_precision ?? 'street',
    living_area_sqm: input.living_area_sqm ?? null,
    lot_size_sqm: input.lot_size_sqm ?? null,
    rooms: input.rooms ?? null,
    year_built: input.year_built ?? null,
    floor: input.floor ?? null,
    purchase_price_eur: input.purchase_price_eur ?? null,
    cold_rent_eur: input.cold_rent_eur ?? null,
    service_charges_eur: input.service_charges_eur ?? null,
    available_from: toDate(input.available_from),
    energy_type: energy.type ?? null,
    energy_final_demand_kwh: energy.final_energy_demand_kwh ?? null,
    energy_source: energy.energy_source ?? null,
    energy_system_year: energy.system_year ?? null,
    energy_efficiency_class: toClass(energy.efficiency_class),
    energy_valid_until: toDate(energy.valid_until),
    energy_exemption: energy.exemption ?? null,
    commission_buyer_percent: commission.buyer_percent ?? null,
    commission_seller_percent: commission.seller_percent ?? null,
    commission_note: commission.note ?? null,
    commission_engaged_by: commission.engaged_by ?? null,
    commission_buyer_is_consumer: commission.buyer_is_consumer ?? null,
    commission_tenant_months: commission.tenant_months ?? null,
    commission_landlord_months: commission.landlord_months ?? null,
  };
}

function allNull(values: Record<string, unknown>): boolean {
  return Object.values(values).every((value) => value === null);
}

/** The API representation; unset fields are `null`, an empty certificate or commission is `null`. */
export function toProperty(row: Row): Property {
  const energy = {
    type: row.energy_type,
    final_energy_demand_kwh: row.energy_final_demand_kwh,
    energy_source: row.energy_source,
    system_year: row.energy_system_year,
    efficiency_class: fromClass(row.energy_efficiency_class),
    valid_until: fromDate(row.energy_valid_until),
    exemption: row.energy_exemption,
  };
  const commission = {
    buyer_percent: row.commission_buyer_percent,
    seller_percent: row.commission_seller_percent,
    note: row.commission_note,
    engaged_by: row.commission_engaged_by,
    buyer_is_consumer: row.commission_buyer_is_consumer,
    tenant_months: row.commission_tenant_months,
    landlord_months: row.commission_landlord_months,
  };
  return {
    id: row.id,
    status: row.status,
    type: row.type,
    title: row.title,
    description: row.description,
    address: {
      street: row.address_street,
      // Rows written before the column existed: split when read.
      house_number: houseNumberOf(row.address_street, row.address_house_number),
      postal_code: row.address_postal_code,
      city: row.address_city,
      country: row.address_country,
      location_precision: row.address_location_precision,
    },
    living_area_sqm: row.living_area_sqm,
    lot_size_sqm: row.lot_size_sqm,
    rooms: row.rooms,
    year_built: row.year_built,
    floor: row.floor,
    purchase_price_eur: row.purchase_price_eur,
    cold_rent_eur: row.cold_rent_eur,
    service_charges_eur: row.service_charges_eur,
    available_from: fromDate(row.available_from),
    energy_certificate: allNull(energy) ? null : energy,
    commission: allNull(commission) ? null : { ...commission, buyer_is_consumer: commission.buyer_is_consumer ?? true },
    transaction:
      row.transaction_price_eur === null || row.transaction_date === null
        ? null
        : {
            price_eur: row.transaction_price_eur,
            date: fromDate(row.transaction_date)!,
            assumed: row.transaction_price_assumed,
          },
    media_count: row.media_count,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
