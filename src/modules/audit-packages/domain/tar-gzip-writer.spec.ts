import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, gunzipSync, inflateRawSync } from 'node:zlib';
import * as fc from 'fast-check';
import * as tar from 'tar-stream';
import { header, TarGzipWriter } from './tar-gzip-writer';

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** The files of a tar.gz as an independent reader (a tar library over Node's gunzip) sees them. */
async function extract(archive: Buffer): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const ex = tar.extract();
  ex.on('entry', (h, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      files.set(h.name, Buffer.concat(chunks));
      next();
    });
  });
  await pipeline(Readable.from([archive]), createGunzip(), ex);
  return files;
}

async function write(files: Array<{ name: string; bytes: Buffer; store?: boolean }>): Promise<Buffer> {
  const w = new TarGzipWriter();
  const out = collect(w.stream);
  for (const f of files) await w.file(f.name, f.bytes, f.store ? 'store' : 'deflate');
  await w.finish();
  return out;
}

describe('TarGzipWriter (audit packages: a tar in one gzip member, each file deflated or stored)', () => {
  it('holds every file byte for byte, whether deflated or stored, small or large, with long and non-ASCII names', async () => {
    const files = [
      { name: 'manifest.json', bytes: Buffer.from('{"a":1}\n') },
      { name: 'evidence/' + 'ab'.repeat(32), bytes: randomBytes(3 * 65535 + 17), store: true },
      { name: 'attestations/x.json', bytes: Buffer.from('{"b":'.repeat(20000) + '2' + '}'.repeat(20000)) },
      { name: 'moments/' + 't'.repeat(150) + '/1.json', bytes: Buffer.from('{}') },
      { name: 'policies/ü/politique-évaluée.rego', bytes: Buffer.from('package p\n') },
      { name: 'policies/' + 'cd'.repeat(32) + '/' + 'q'.repeat(70) + '.rego', bytes: Buffer.from('package q\n') },
      { name: 'empty', bytes: Buffer.alloc(0), store: true },
      { name: 'big', bytes: Buffer.concat([randomBytes(1.5 * 1024 * 1024), Buffer.alloc(1024 * 1024, 'a')]) },
    ];
    const archive = await write(files);
    const got = await extract(archive);
    expect([...got.keys()]).toEqual(files.map((f) => f.name));
    for (const f of files) expect(got.get(f.name)!.equals(f.bytes)).toBe(true);
    // One member: its deflate stream (between the 10-byte header and the 8-byte trailer) holds the whole tar.
    const whole = gunzipSync(archive);
    expect(whole.length % 512).toBe(0);
    expect(inflateRawSync(archive.subarray(10, archive.length - 8)).equals(whole)).toBe(true);
  });

  it('is read by GNU tar and gzip (an auditor\'s own tools), long names included', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tgz-'));
    try {
      const long = 'moments/' + 'n'.repeat(120) + '/7.json';
      const stored = randomBytes(200_000);
      const file = path.join(dir, 'p.tar.gz');
      fs.writeFileSync(file, await write([{ name: long, bytes: Buffer.from('{"m":7}') }, { name: 'evidence/e', bytes: stored, store: true }]));
      execFileSync('gzip', ['-t', file]);
      const out = path.join(dir, 'out');
      fs.mkdirSync(out);
      execFileSync('tar', ['-xzf', file, '-C', out]);
      expect(fs.readFileSync(path.join(out, long), 'utf8')).toBe('{"m":7}');
      expect(createHash('sha256').update(fs.readFileSync(path.join(out, 'evidence/e'))).digest('hex')).toBe(createHash('sha256').update(stored).digest('hex'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('puts a long name in ustar\'s prefix and name fields when it splits at a slash (plain ustar readers), else in a pax record', () => {
    const split = 'policies/' + 'ab'.repeat(32) + '/' + 'p'.repeat(60) + '.rego';
    const h = header(split, 10);
    expect(h.length).toBe(512);
    const field = (at: number, width: number) => h.subarray(at, at + width).toString('latin1').replace(/\0.*$/s, '');
    expect(`${field(345, 155)}/${field(0, 100)}`).toBe(split);
    const unsplittable = 'moments/' + 't'.repeat(150) + '/1.json';
    const pax = header(unsplittable, 10);
    expect(pax.length).toBe(3 * 512);
    expect(pax[156]).toBe('x'.charCodeAt(0));
    expect(pax.subarray(512, 1024).toString('utf8')).toContain(` path=${unsplittable}\n`);
  });

  it('stores what does not compress and deflates what does', async () => {
    expect(TarGzipWriter.compressionFor(randomBytes(1024 * 1024))).toBe('store');
    expect(TarGzipWriter.compressionFor(Buffer.alloc(1024 * 1024, 'log line\n'))).toBe('deflate');
    const random = randomBytes(1024 * 1024);
    const text = Buffer.alloc(1024 * 1024, 'log line\n');
    const archive = await write([
      { name: 'r', bytes: random, store: true },
      { name: 't', bytes: text },
    ]);
    // Stored: about the random bytes' size; deflated: the text shrinks to almost nothing.
    expect(archive.length).toBeGreaterThan(random.length);
    expect(archive.length).toBeLessThan(random.length + 64 * 1024);
  });

  it('round-trips any sequence of files and compressions (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ size: fc.nat(200_000), store: fc.boolean(), repeat: fc.boolean() }), { maxLength: 6 }),
        async (specs) => {
          const files = specs.map((s, i) => ({ name: `f${i}`, store: s.store, bytes: s.repeat ? Buffer.alloc(s.size, i) : randomBytes(s.size) }));
          const got = await extract(await write(files));
          expect(got.size).toBe(files.length);
          for (const f of files) expect(got.get(f.name)!.equals(f.bytes)).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('rejects writes once the reader has gone away', async () => {
    const w = new TarGzipWriter();
    w.stream.destroy();
    await new Promise((r) => setImmediate(r));
    await expect(w.file('a', randomBytes(1024 * 1024), 'store')).rejects.toThrow(/closed/);
  });
});
