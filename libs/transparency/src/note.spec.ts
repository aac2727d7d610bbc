import { createHash, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { openCheckpoint, parseCheckpoint, signCheckpoint, formatCheckpoint } from './checkpoint';
import { emptyRoot, MemoryTree } from './merkle';
import { formatVerifierKey, noteSigner, openNote, parseNote, parseVerifierKey, privateKeyFromSeed, signNote } from './note';
import { GO_NOTE, SUMDB } from '../published-vectors';

const { peterSeed: PETER_SEED, peterVkey: PETER_VKEY, enochVkey: ENOCH_VKEY, text: TEXT, peterSig: PETER_SIG, enochSig: ENOCH_SIG } = GO_NOTE;
const { vkey: SUMDB_VKEY, checkpoints: SUMDB_CHECKPOINTS } = SUMDB;

describe('signed notes (C2SP signed-note, Ed25519)', () => {
  it("reproduces Go's published key id, verifier key and signature byte for byte", () => {
    const signer = noteSigner('PeterNeumann', privateKeyFromSeed(PETER_SEED));
    expect(formatVerifierKey(signer)).toBe(PETER_VKEY);
    expect(signNote(TEXT, [signer])).toBe(`${TEXT}\n${PETER_SIG}`);
  });

  it('verifies a note with several signatures, leaving unknown keys unchecked', () => {
    const peter = parseVerifierKey(PETER_VKEY);
    const enoch = parseVerifierKey(ENOCH_VKEY);
    const both = openNote(`${TEXT}\n${PETER_SIG}${ENOCH_SIG}`, [peter, enoch]);
    expect(both.text).toBe(TEXT);
    expect(both.verified.map((s) => s.name)).toEqual(['PeterNeumann', 'EnochRoot']);
    const one = openNote(`${TEXT}\n${PETER_SIG}${ENOCH_SIG}`, [peter]);
    expect(one.verified.map((s) => s.name)).toEqual(['PeterNeumann']);
    expect(one.unknown.map((s) => s.name)).toEqual(['EnochRoot']);
    expect(() => openNote(`${TEXT}\n${ENOCH_SIG}`, [peter])).toThrow('no signature by a known key');
  });

  it('rejects a changed text or signature by a known key', () => {
    const peter = parseVerifierKey(PETER_VKEY);
    expect(() => openNote(`${TEXT.replace('answer', 'ANSWER')}\n${PETER_SIG}`, [peter])).toThrow('invalid signature for key PeterNeumann+c74f20a3');
    const forged = PETER_SIG.replace('x08go/ZJku', 'x08go/ZJkv');
    expect(() => openNote(`${TEXT}\n${forged}`, [peter])).toThrow(/invalid signature|malformed/);
  });

  it('rejects malformed notes (the shapes Go rejects)', () => {
    const bad = [TEXT, `${TEXT}\n`, `${TEXT}\n${PETER_SIG.slice(0, -1)}`, `\u0001${TEXT}\n${PETER_SIG}`, `${TEXT}\n— Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`, `${TEXT}\n${PETER_SIG}Unexpected line.\n`];
    for (const m of bad) expect(() => parseNote(m)).toThrow('malformed note');
  });

  it('rejects every truncation and single-character change of a verifier key', () => {
    expect(parseVerifierKey(PETER_VKEY).name).toBe('PeterNeumann');
    for (let i = 0; i < PETER_VKEY.length; i++) {
      expect(() => parseVerifierKey(PETER_VKEY.slice(0, i))).toThrow();
      const changed = PETER_VKEY.slice(0, i) + String.fromCharCode(PETER_VKEY.charCodeAt(i) + 1) + PETER_VKEY.slice(i + 1);
      expect(() => parseVerifierKey(changed)).toThrow();
    }
  });

  it.each(SUMDB_CHECKPOINTS)('verifies a checkpoint signed by sum.golang.org (%#)', (note) => {
    const cp = openCheckpoint(note, [parseVerifierKey(SUMDB_VKEY)], 'go.sum database tree');
    expect(cp.size).toBeGreaterThan(1_000_000);
    expect(cp.rootHash).toHaveLength(32);
    expect(() => openCheckpoint(note.replace(/\n(\d+)\n/, (_m, n) => `\n${Number(n) + 1}\n`), [parseVerifierKey(SUMDB_VKEY)])).toThrow('invalid signature');
  });
});

describe('checkpoints signed by this library, verified independently', () => {
  const origin = 'veritrail.example:8443/acme';
  const { privateKey } = generateKeyPairSync('ed25519');
  const rotated = generateKeyPairSync('ed25519').privateKey;

  it('writes the exact C2SP bytes, one signature line per key, each verifiable by node:crypto alone', () => {
    const tree = new MemoryTree();
    for (const x of ['a', 'b', 'c']) tree.appendData(Buffer.from(x));
    const root = tree.root();
    const signers = [noteSigner('veritrail.example:8443', privateKey), noteSigner('veritrail.example:8443', rotated)];
    const note = signCheckpoint({ origin, size: 3, rootHash: root }, signers);

    const body = `veritrail.example:8443/acme\n3\n${root.toString('base64')}\n`;
    const lines = note.slice(body.length + 1).split('\n');
    expect(note.startsWith(`${body}\n`)).toBe(true);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    for (const [i, key] of [privateKey, rotated].entries()) {
      const raw = createPublicKey(key).export({ format: 'der', type: 'spki' }).subarray(12);
      const expectedId = createHash('sha256').update(Buffer.concat([Buffer.from('veritrail.example:8443\n\u0001', 'binary'), raw])).digest().subarray(0, 4);
      const m = /^— veritrail\.example:8443 ([A-Za-z0-9+/=]+)$/.exec(lines[i]);
      expect(m).not.toBeNull();
      const blob = Buffer.from(m![1], 'base64');
      expect(blob).toHaveLength(68);
      expect(blob.subarray(0, 4).equals(expectedId)).toBe(true);
      expect(verify(null, Buffer.from(body, 'utf8'), createPublicKey(key), blob.subarray(4))).toBe(true);
      expect(verify(null, Buffer.from(body.replace('\n3\n', '\n4\n'), 'utf8'), createPublicKey(key), blob.subarray(4))).toBe(false);
      // The verifier key string names the same id and key.
      expect(formatVerifierKey(signers[i])).toBe(`veritrail.example:8443+${expectedId.toString('hex')}+${Buffer.concat([Buffer.from([1]), raw]).toString('base64')}`);
    }
    // An old key alone still verifies a note the new and old keys both signed.
    expect(openCheckpoint(note, [parseVerifierKey(formatVerifierKey(signers[0]))], origin).size).toBe(3);
  });

  it('writes the empty log as size 0 with root SHA-256("")', () => {
    expect(formatCheckpoint({ origin, size: 0, rootHash: emptyRoot() })).toBe(`${origin}\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n`);
  });

  it('refuses malformed checkpoint bodies', () => {
    const root = emptyRoot().toString('base64');
    for (const body of [`o\n01\n${root}\n`, `o\n-1\n${root}\n`, `o\n1\n${root}`, `o\n1\nAAAA\n`, `\n1\n${root}\n`, `o\n1\n${root}\n\n`]) {
      expect(() => parseCheckpoint(body)).toThrow();
    }
    expect(parseCheckpoint(`o\n1\n${root}\next\n`).extensions).toEqual(['ext']);
  });

  it('rejects a checkpoint for another origin', () => {
    const signer = noteSigner('k', privateKey);
    const note = signCheckpoint({ origin, size: 0, rootHash: emptyRoot() }, [signer]);
    expect(() => openCheckpoint(note, [signer], 'veritrail.example:8443/other')).toThrow('origin');
  });
});
