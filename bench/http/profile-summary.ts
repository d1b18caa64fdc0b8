// Where a CPU profile's time went, by layer (package) and by function: self time of every sample.
//   tsx bench/http/profile-summary.ts <file.cpuprofile> [--requests N] [--top 30] [--from S] [--to S]
// With --requests (the requests the profiled process answered), each layer is also given in µs per request;
// --from and --to keep the samples of that window only (seconds after the profile began: leave out start-up).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    requests: { type: 'string' },
    top: { type: 'string', default: '30' },
    from: { type: 'string', default: '0' },
    to: { type: 'string', default: 'Infinity' },
  },
});
const profile = JSON.parse(readFileSync(positionals[0], 'utf8')) as Profile;

/** The layer of a frame: a package of node_modules, one of ours, Node itself or V8's own entries. */
function layerOf({ url, functionName }: ProfileNode['callFrame']): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg =
    /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url) ??
    /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const ours = /\/(packages|apps)\/([^/]+)\//.exec(url);
  if (ours) return `${ours[1]}/${ours[2]}`;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[1] ?? url.slice(5)}`;
  return url;
}

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfUs = new Map<number, number>();
const window = { from: Number(values.from) * 1e6, to: Number(values.to) * 1e6 };
let at = 0;
for (let i = 0; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i] ?? 0;
  if (at < window.from || at > window.to) continue;
  selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
}

const layers = new Map<string, number>();
const functions = new Map<string, number>();
let busy = 0;
for (const [id, us] of selfUs) {
  const frame = byId.get(id)!.callFrame;
  if (frame.functionName === '(idle)') continue;
  busy += us;
  const layer = layerOf(frame);
  layers.set(layer, (layers.get(layer) ?? 0) + us);
  const name = `${frame.functionName || '(anonymous)'} ${layer}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
  functions.set(name, (functions.get(name) ?? 0) + us);
}

const requests = values.requests ? Number(values.requests) : undefined;
const line = (name: string, us: number) =>
  `${((100 * us) / busy).toFixed(1).padStart(5)} %  ${requests ? `${(us / requests).toFixed(1).padStart(7)} µs/req  ` : ''}${name}`;
const top = Number(values.top);
console.log(
  `busy ${(busy / 1e6).toFixed(1)} s of ${((Math.min(window.to, profile.endTime - profile.startTime) - window.from) / 1e6).toFixed(1)} s${requests ? `, ${(busy / requests).toFixed(0)} µs per request` : ''}\n\nby layer:`,
);
for (const [name, us] of [...layers].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(line(name, us));
console.log('\nby function (self time):');
for (const [name, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(line(name, us));
