// The leads-api contract suite with the services connected through PgBouncer in transaction mode.
import { leadsApiSuite } from '../suites.js';
import { behindPgBouncer } from './deployment.js';

leadsApiSuite({ deploy: behindPgBouncer });
