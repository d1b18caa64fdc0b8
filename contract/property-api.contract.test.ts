// The property API and the public feeds, driven through the typed client over real HTTP; every
// response checked against openapi/property-api.json and openapi/public-feeds-api.json.
import { propertyApiSuite } from './suites.js';

propertyApiSuite();
