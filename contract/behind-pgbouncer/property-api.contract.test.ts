// The property-api contract suite with the services connected through PgBouncer in transaction mode.
import { propertyApiSuite } from '../suites.js';
import { behindPgBouncer } from './deployment.js';

propertyApiSuite({ deploy: behindPgBouncer });
