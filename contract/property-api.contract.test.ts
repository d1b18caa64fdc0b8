// The property API and the public feeds, driven through the typed client over real HTTP; every
// response checked against openapi/property-api.json and openapi/public-feeds-api.json. The
// services and the worker run as the restricted database role of docker-compose (data privileges
// only, contract/as-app-role/), as they do in production.
import { asAppRole } from './as-app-role/deployment.js';
import { propertyApiSuite } from './suites.js';

propertyApiSuite({ deploy: asAppRole });
