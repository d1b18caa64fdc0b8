// The agent platform API, driven through the typed client over real HTTP; every response checked
// against openapi/agent-platform-api.json.
import { agentPlatformApiSuite } from './suites.js';

agentPlatformApiSuite();
