// What the property scenarios hand on to each other (ids made by earlier steps).
export interface PropertyState {
  propertyId: string;
  photo: { id: string; sha256: string };
  websiteChannel: { id: string; feed_url: string };
  listingId: string;
  inquiryId: string;
  secondInquiryId: string;
}

export const newState = (): PropertyState => ({}) as PropertyState;

/** In the future (appointments and slots must not be in the past), at whole hours, UTC. */
export const hoursFromNow = (hours: number) =>
  new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + hours * 3_600_000).toISOString();

export const ENERGY_CERTIFICATE = {
  type: 'demand',
  final_energy_demand_kwh: 85.5,
  energy_source: 'Fernwärme',
  efficiency_class: 'C',
  valid_until: '2031-05-01',
} as const;
