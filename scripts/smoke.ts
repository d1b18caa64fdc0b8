// `pnpm smoke --base-url <url> --key-env <NAME> [...]`: one read and one undone write per API, after a deploy (docs/smoke.md).
import { smoke } from './smoke/main.js';

process.exitCode = await smoke(process.argv.slice(2), process.stdout, process.stderr);
