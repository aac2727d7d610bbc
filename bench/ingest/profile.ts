/**
 * Where the service's CPU goes per ingested attestation: runs the service under `--cpu-prof`, loads it with
 * generic attestations (1 KB data_json, 16 clients), and summarises the main thread's samples taken while the
 * load ran, per package / source file and per function, in microseconds per request.
 * Run: `npm run build && npx ts-node --transpile-only bench/ingest/profile.ts [--seconds N] [--main <main.js>]
 * [--top N] [--keep <dir>] [--node <node binary>] [--attachment-kb N]` (`--attachment-kb`: an attachment of N KB with
 * distinct bytes per request, as compare.ts sends; `--keep`: leave the .cpuprofile there, to open in Chrome DevTools or speedscope).
 *
 * The profile's clock and this process's `process.hrtime` are both the system's monotonic clock, so samples
 * outside the load window (start-up, warm-up, shutdown) are left out. Sampling costs the service some speed,
 * so the absolute figures here are above those of compare.ts; the shares are what this is for.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { machine, startStack } from './harness';
import { attestationBodies, attestationLoad } from './requests';
import { textOptions } from '../options';

const args = process.argv.slice(2);
const option = textOptions(args);
const SECONDS = Number(option('seconds', '10'));
const TOP = Number(option('top', '40'));
const ATTACHMENT_KB = Number(option('attachment-kb', '0'));

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
  const libs = url.indexOf('/libs/');
  if (libs >= 0) return url.slice(libs + 1);
  const src = url.indexOf('/src/');
  if (src >= 0) return url.slice(src + 1).replace(/^file:\/\//, '');
  return url;
}

/** Areas of the request's path, for the summary in bench/RESULTS.md (first match wins). */
const AREAS: Array<[string, RegExp]> = [
  ['socket writes (writev: mostly time the kernel gives the woken reader)', /^writev |^writeUtf8String |^writeBuffer /],
  ['garbage collector', /^\(garbage collector\)/],
  ['request context (async hooks / AsyncContextFrame)', /node:async_hooks|node:async_context_frame|async_local_storage/],
  ['HTTP: Node http, streams, express, router', /node:_http|node:streams|node:stream_base|node:net|node:events|pkg:express|pkg:router|pkg:parseurl|pkg:content-type|pkg:on-finished|pkg:finalhandler|pkg:statuses|pkg:mime|pkg:type-is|pkg:send|pkg:path-to-regexp/],
  ['the service\'s HTTP pipeline (headers, request id, body gate, metrics, rate limit)', /src\/common\/http\/|src\/common\/metrics\/|pkg:prom-client|pkg:helmet|pkg:@nestjs\/throttler/],
  ['Nest: routing, guards, pipes, interceptors, CQRS bus', /pkg:@nestjs\/|pkg:rxjs|pkg:reflect-metadata/],
  ['auth: API key, org and role guards, caches', /src\/common\/auth\/|pkg:lru-cache|src\/common\/cache\/|node:crypto/],
  ['multipart and data_json: parsing, validation', /multipart|src\/common\/validation\/|pkg:class-validator|pkg:class-transformer|pkg:validator|src\/common\/evidence\//],
  ['attestation recording: handler, group commit, SQL', /src\/modules\//],
  ['PostgreSQL client: pg, typeorm', /pkg:pg|pkg:typeorm/],
];

async function main() {
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritrail-profile-'));
  const node = option('node', '') || undefined;
  const body = attestationBodies(ATTACHMENT_KB);
  const stack = await startStack({ main: option('main', 'dist/src/main.js'), node, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] });
  const load = attestationLoad(stack, 'profile-flow', body);
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
    console.log(`profile: ${r.requests} requests in ${r.seconds.toFixed(1)} s (${r.rps.toFixed(0)}/s); ${machine()}${node ? `; service on ${node}` : ''}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
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
  const byArea = new Map<string, number>();
  for (const [fn, us] of byFunction) {
    const area = AREAS.find(([, re]) => re.test(fn))?.[0] ?? 'other (native calls, timers, buffers, JSON ...)';
    byArea.set(area, (byArea.get(area) ?? 0) + us);
  }
  const perRequest = (us: number) => (us / requests).toFixed(1).padStart(6);
  const share = (us: number) => ((100 * us) / busy).toFixed(1).padStart(5) + '%';
  console.log(`main thread busy ${perRequest(busy)} us per request (idle ${perRequest(idle)} us); self time by area:`);
  for (const [area, us] of [...byArea].sort((a, b) => b[1] - a[1])) console.log(`${perRequest(us)} us ${share(us)}  ${area}`);
  console.log(`\nself time by place:`);
  for (const [place, us] of [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${perRequest(us)} us ${share(us)}  ${place}`);
  console.log(`\nself time by function (top ${TOP}):`);
  for (const [fn, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${perRequest(us)} us ${share(us)}  ${fn}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
