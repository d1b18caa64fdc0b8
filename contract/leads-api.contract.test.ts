// The leads API (German dialect), driven through the typed client over real HTTP; every response
// checked against openapi/leads-api.json.
import { leadsApiSuite } from './suites.js';

leadsApiSuite();
