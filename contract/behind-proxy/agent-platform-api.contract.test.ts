// The agent platform's contract suite through nginx over HTTPS, against two instances and two
// workers (its own deployment: the recorder credits an operation both services share, such as
// /v1/webhooks, to the first document of a run, so each service's document gets a run of its own).
import { agentPlatformApiSuite } from '../suites.js';
import { behindProxy } from './deployment.js';

agentPlatformApiSuite({ deploy: behindProxy() });
