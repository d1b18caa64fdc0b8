// `pnpm contract --base-url <url> --key-env <NAME of a variable holding a sandbox key> [...]`: the read-only contract checks against a deployment.
import { contract } from './cli/run.js';

process.exitCode = await contract(process.argv.slice(2), process.stdout, process.stderr);
