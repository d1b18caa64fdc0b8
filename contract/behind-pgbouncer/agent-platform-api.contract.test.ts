// The agent-platform-api contract suite with the services connected through PgBouncer in transaction mode.
import { agentPlatformApiSuite } from '../suites.js';
import { behindPgBouncer } from './deployment.js';

agentPlatformApiSuite({ deploy: behindPgBouncer });
