/**
 * The properties as lead matching reads them in its own SQL (a relation to select from: the
 * planner inlines it). The columns are this folder's promise to matching; a renamed column keeps
 * its name here.
 */
export const PROPERTIES_FOR_MATCHING = `(SELECT id, account_id, status, type, purchase_price_eur, cold_rent_eur,
  address_city, address_postal_code, rooms, living_area_sqm FROM properties)`;
