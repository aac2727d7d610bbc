/**
 * Where the service's CPU goes per ingested attestation: runs the service under `--cpu-prof`, loads it with
 * generic attestations (1 KB data_json, 16 clients), and summarises the main thread's samples taken while the
 * load ran, per package / source file and per function, in microseconds per request.
 * Run: `npm run build && npx ts-node --transpile-only bench/ingest/profile.ts [--seconds N] [--main <main.js>]
 * [--top N] [--keep <dir>]` (`--keep`: leave the .cpuprofile there, to open in Chrome DevTools or speedscope).
 *
 * The profile's clock and this process's `process.hrtime` are both the system's monotonic clock, so samples
 * outside the load window (start-up, warm-up, shutdown) are left out. Sampling costs the service some speed,
 * so the absolute figures here are above those of compare.ts; the shares are what this is for.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { machine, startStack } from './harness';
import { runLoad } from './load';
import { BOUNDARY, dataJsonOf, multipart } from './requests';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const SECONDS = Number(option('seconds', '10'));
const TOP = Number(option('top', '40'));
const CLIENTS = 16;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A sample's place: `pkg:express`, `src/common/http/body-gate.js`, `node:internal/...`, `(garbage collector)`. */
function placeOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return 'pkg:' + (rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]);
  }
  if (url.startsWith('node:')) return url.replace(/^node:internal\/(deps\/)?/, 'node:').split('/').slice(0, 2).join('/');
  const src = url.indexOf('/src/');
  if (src >= 0) return url.slice(src + 1).replace(/^file:\/\//, '');
  const libs = url.indexOf('/libs/');
  if (libs >= 0) return url.slice(libs + 1);
  return url;
}

async function main() {
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-profile-'));
  const stack = await startStack({ main: option('main', 'dist/src/main.js'), nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] });
  const load = (ms: number) =>
    runLoad({
      url: stack.baseUrl,
      method: 'POST',
      headers: { Authorization: `Bearer ${stack.apiKey}`, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
      path: (i) => `/api/v2/attestations/${stack.orgName}/profile-flow/trail/trail-${i % CLIENTS}/generic`,
      body: () => multipart(dataJsonOf(1024, 'unit-test')),
      concurrency: CLIENTS,
      durationMs: ms,
      expectStatus: 201,
    });
  let requests = 0;
  let from = 0n;
  let to = 0n;
  try {
    await load(3000);
    from = process.hrtime.bigint() / 1000n;
    const r = await load(SECONDS * 1000);
    to = process.hrtime.bigint() / 1000n;
    if (r.errors) throw new Error(`${r.errors} errors (first: ${r.firstError})`);
    requests = r.requests;
    console.log(`profile: ${r.requests} requests in ${r.seconds.toFixed(1)} s (${r.rps.toFixed(0)}/s); ${machine()}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  } finally {
    await stack.stop();
  }
  const file = fs.readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('no profile written');
  const profile = JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8')) as CpuProfile;
  const keep = option('keep', '');
  if (keep) {
    fs.mkdirSync(keep, { recursive: true });
    fs.copyFileSync(path.join(profileDir, file), path.join(keep, file));
    console.log(`profile kept: ${path.join(keep, file)}`);
  }
  fs.rmSync(profileDir, { recursive: true, force: true });

  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (t < Number(from) || t > Number(to)) continue;
    selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + profile.timeDeltas[i]);
  }
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') {
      idle += us;
      continue;
    }
    busy += us;
    const place = placeOf(url, functionName);
    byPlace.set(place, (byPlace.get(place) ?? 0) + us);
    const fn = `${functionName || '(anonymous)'} ${place}${url ? ':' + (lineNumber + 1) : ''}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  }
  const perRequest = (us: number) => (us / requests).toFixed(1).padStart(6);
  const share = (us: number) => ((100 * us) / busy).toFixed(1).padStart(5) + '%';
  console.log(`main thread busy ${perRequest(busy)} us per request (idle ${perRequest(idle)} us); self time by place:`);
  for (const [place, us] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${perRequest(us)} us ${share(us)}  ${place}`);
  console.log(`\nself time by function (top ${TOP}):`);
  for (const [fn, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${perRequest(us)} us ${share(us)}  ${fn}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
