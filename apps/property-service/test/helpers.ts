import { startTestApp, type TestApp } from '@platform/testkit';
import { buildPropertyApp } from '../src/app.js';
import { propertyDescriptor } from '../src/descriptor.js';

export type PropertyTestContext = TestApp;

/** The property app on its own database, with two tenants holding every scope. */
export const startPropertyApp = (options: { allowPrivateTargets?: boolean } = {}) => startTestApp(propertyDescriptor, buildPropertyApp, options);

export const validProperty = () => ({
  type: 'apartment',
  title: 'Bright two-room flat near the park',
  address: { street: 'Parkstraße 5', postal_code: '10115', city: 'Berlin' },
  living_area_sqm: 64.5,
  rooms: 2,
  purchase_price_eur: 420000,
});
