// `pnpm contract --base-url <url> --key <sandbox key> [...]`: the read-only contract checks against a deployment.
import { contract } from './cli/run.js';

process.exitCode = await contract(process.argv.slice(2), process.stdout, process.stderr);
