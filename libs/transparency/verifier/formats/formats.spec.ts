import canonicalize from 'canonicalize';
import { GO_NOTE, SUMDB } from '../../published-vectors';
import fc from 'fast-check';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
// The write path's implementation, imported here only: the verifier's own code never imports it (the
// dependency-cruiser rule verifier-stands-alone). This spec checks that the two, written apart, agree.
import * as service from '../../src';
import {
  dssePae,
  jcsCanonicalize,
  JcsError,
  jcsNumber,
  merkleEmptyRoot,
  merkleLeafHash,
  merkleNodeHash,
  merkleVerifyConsistency,
  merkleVerifyInclusion,
  noteKeyIdHex,
  openDsseEnvelope,
  openSignedCheckpoint,
  openSignedNote,
  readVerifierKey,
  TrustedNoteKey,
} from './index';

/** A copy of `bytes` with one bit flipped (bit 0 is the lowest bit of the first byte). */
function flipBit(bytes: Uint8Array, bit: number): Buffer {
  const copy = Buffer.from(bytes);
  copy[Math.floor(bit / 8) % copy.length] ^= 1 << bit % 8;
  return copy;
}

/** Whether `f` throws; the verdict both implementations must agree on. */
function refuses(f: () => unknown): boolean {
  try {
    f();
    return false;
  } catch {
    return true;
  }
}

function newSigner(name: string): service.NoteSigner {
  return service.noteSigner(name, generateKeyPairSync('ed25519').privateKey);
}

// ---------------------------------------------------------------------------------------------------------------
describe('RFC 8785 canonical JSON: the verifier and the write path agree', () => {
  const both = (value: unknown) => [jcsCanonicalize(value), service.canonicalJson(value)];

  it("gives the RFC's example output (section 3.2.3: literals, numbers, string escapes)", () => {
    const input = JSON.parse(
      '{\n  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],\n' +
        '  "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",\n  "literals": [null, true, false]\n}',
    );
    const expected = '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}';
    expect(both(input)).toEqual([expected, expected]);
  });

  it("sorts members by UTF-16 code units as the RFC's sorting example does (section 3.2.3)", () => {
    const input = JSON.parse(
      '{"\\u20ac":"Euro Sign","\\r":"Carriage Return","\\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One",' +
        '"\\ud83d\\ude00":"Emoji: Grinning Face","\\u0080":"Control","\\u00f6":"Latin Small Letter O With Diaeresis"}',
    );
    const expected =
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
      '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}';
    expect(both(input)).toEqual([expected, expected]);
    // An astral character (a surrogate pair, 0xD83D...) sorts before U+FB33 by code units, though after it by code point.
    expect(Object.keys(JSON.parse(jcsCanonicalize(input))).slice(-2)).toEqual(['\ud83d\ude00', '\ufb33']);
  });

  // RFC 8785 Appendix B: IEEE 754 doubles (as hex bit patterns) and their canonical text.
  const APPENDIX_B: Array<[string, string]> = [
    ['0000000000000000', '0'],
    ['8000000000000000', '0'],
    ['0000000000000001', '5e-324'],
    ['8000000000000001', '-5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
    ['ffefffffffffffff', '-1.7976931348623157e+308'],
    ['4340000000000000', '9007199254740992'],
    ['c340000000000000', '-9007199254740992'],
    ['4430000000000000', '295147905179352830000'],
    ['44b52d02c7e14af5', '9.999999999999997e+22'],
    ['44b52d02c7e14af6', '1e+23'],
    ['44b52d02c7e14af7', '1.0000000000000001e+23'],
    ['444b1ae4d6e2ef4e', '999999999999999700000'],
    ['444b1ae4d6e2ef4f', '999999999999999900000'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['41b3de4355555553', '333333333.3333332'],
    ['41b3de4355555554', '333333333.33333325'],
    ['41b3de4355555555', '333333333.3333333'],
    ['41b3de4355555556', '333333333.3333334'],
    ['41b3de4355555557', '333333333.33333343'],
    ['becbf647612f3696', '-0.0000033333333333333333'],
    ['43143ff3c1cb0959', '1424953923781206.2'],
  ];
  it.each(APPENDIX_B)('writes the double 0x%s as %s (Appendix B)', (hex, text) => {
    const value = Buffer.from(hex, 'hex').readDoubleBE(0);
    expect(jcsNumber(value)).toBe(text);
    expect(both([value])).toEqual([`[${text}]`, `[${text}]`]);
  });

  it('writes the edge numbers the ECMAScript rules single out', () => {
    const cases: Array<[number, string]> = [
      [1e21, '1e+21'],
      [1e20, '100000000000000000000'],
      [5e-324, '5e-324'],
      [-0, '0'],
      [0.1 + 0.2, '0.30000000000000004'],
      [1e-6, '0.000001'],
      [1e-7, '1e-7'],
      [1.5e-7, '1.5e-7'],
      [-1.5e300, '-1.5e+300'],
      [Number.EPSILON, '2.220446049250313e-16'],
      [2 ** 53 + 2, '9007199254740994'],
      [123.456, '123.456'],
    ];
    for (const [value, text] of cases) expect([value, ...both(value)]).toEqual([value, text, text]);
  });

  it('refuses values JSON cannot hold, where the write path refuses them too', () => {
    const sparse: unknown[] = [];
    sparse[1] = 1;
    const bad: unknown[] = [undefined, NaN, Infinity, -Infinity, 10n, () => 1, Symbol('s'), sparse, { a: undefined }, [1, NaN], { x: { y: Infinity } }];
    for (const value of bad) {
      expect(() => jcsCanonicalize(value)).toThrow(JcsError);
      expect(() => service.canonicalJson(value)).toThrow();
    }
  });

  it('refuses what is not a parsed I-JSON value: unpaired surrogates and objects that are not plain', () => {
    // RFC 8785 takes I-JSON input, whose strings hold no lone surrogate; JSON.parse of "\ud800" still makes one.
    for (const value of [JSON.parse('"\\ud800"'), JSON.parse('"a\\udc00"'), JSON.parse('"\\ude00\\ud83d"'), { [JSON.parse('"\\udbff"')]: 1 }, new Date(0), new Map(), new (class Point {})()]) {
      expect(() => jcsCanonicalize(value)).toThrow(JcsError);
    }
    // A pair is one character, written as itself; "toJSON" and "__proto__" are ordinary member names.
    expect(jcsCanonicalize(JSON.parse('{"toJSON":1,"__proto__":"\\ud83d\\ude00"}'))).toBe('{"__proto__":"\ud83d\ude00","toJSON":1}');
  });

  it('gives the same text for a few hundred random JSON values (a third implementation, canonicalize, agreeing too)', () => {
    const character = fc.oneof(
      fc.integer({ min: 0x00, max: 0x7f }).map((c) => String.fromCharCode(c)),
      fc.integer({ min: 0x80, max: 0xd7ff }).map((c) => String.fromCharCode(c)),
      fc.integer({ min: 0xe000, max: 0xffff }).map((c) => String.fromCharCode(c)),
      fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
      fc.constantFrom('"', '\\', '\u2028', '\u007f', '\ud83d\ude00', '\u00e9', '\ufb33', '\u20ac'),
    );
    const text = fc.string({ unit: character, maxLength: 8 });
    const number = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer(),
      fc.constantFrom(0, -0, 1e21, 1e-7, 1e-6, 5e-324, -5e-324, 0.1 + 0.2, 2 ** 53, -(2 ** 53), 1e23, Number.MAX_VALUE, 999999999999999900000),
    );
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        number,
        text,
        fc.array(tie('value'), { maxLength: 5 }),
        fc.dictionary(text, tie('value'), { maxKeys: 6 }),
      ),
    })).value;
    let sawAstralKey = false;
    fc.assert(
      fc.property(json, (value) => {
        const ours = jcsCanonicalize(value);
        expect(ours).toBe(service.canonicalJson(value));
        expect(ours).toBe(canonicalize(value));
        if (/"[^"]*[\ud800-\udbff][^"]*":/.test(ours)) sawAstralKey = true;
      }),
      { numRuns: 400, seed: 8785 },
    );
    // The generator reached the cases this is about.
    expect(sawAstralKey).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------------------
describe('RFC 6962 hashes and RFC 9162 proofs: proofs of the write path verify with the verifier', () => {
  it('hashes as RFC 6962 defines, as the write path does', () => {
    // SHA-256("") and SHA-256(0x00): published values (Certificate Transparency's test vectors).
    expect(merkleEmptyRoot().toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(merkleLeafHash(Buffer.alloc(0)).toString('hex')).toBe('6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d');
    expect(merkleEmptyRoot()).toEqual(service.emptyRoot());
    for (let i = 0; i < 50; i++) {
      const [a, b, d] = [randomBytes(32), randomBytes(32), randomBytes(i * 7)];
      expect(merkleLeafHash(d)).toEqual(service.leafHash(d));
      expect(merkleNodeHash(a, b)).toEqual(service.nodeHash(a, b));
      expect(merkleNodeHash(a, b)).not.toEqual(merkleNodeHash(b, a));
    }
  });

  // Every size up to 20, the powers of two near 256, 300, and random sizes up to 300.
  const rng = fc.sample(fc.integer({ min: 21, max: 300 }), { numRuns: 12, seed: 9162 });
  const SIZES = [...Array.from({ length: 20 }, (_, i) => i + 1), 255, 256, 257, 300, ...rng];

  function treeOf(size: number): service.MemoryTree {
    const tree = new service.MemoryTree();
    for (let i = 0; i < size; i++) tree.appendData(Buffer.from(`entry ${i} of ${size}`));
    return tree;
  }

  it.each(SIZES)('size %i: every inclusion proof verifies; a flipped bit in any proof hash, the root or the leaf fails it', (size) => {
    const tree = treeOf(size);
    const root = tree.root();
    const wrong: string[] = [];
    for (let i = 0; i < size; i++) {
      const leaf = tree.leafHash(i);
      const proof = tree.inclusionProof(i, size);
      if (!merkleVerifyInclusion(i, size, leaf, proof, root)) wrong.push(`index ${i}: did not verify`);
      const bit = (i * 37) % 256;
      proof.forEach((_, k) => {
        const changed = proof.map((h, j) => (j === k ? flipBit(h, bit) : h));
        if (merkleVerifyInclusion(i, size, leaf, changed, root)) wrong.push(`index ${i}: verified with proof hash ${k} changed`);
      });
      if (merkleVerifyInclusion(i, size, leaf, proof, flipBit(root, bit))) wrong.push(`index ${i}: verified with the root changed`);
      if (merkleVerifyInclusion(i, size, flipBit(leaf, bit), proof, root)) wrong.push(`index ${i}: verified with the leaf changed`);
      if (i + 1 < size && merkleVerifyInclusion(i + 1, size, leaf, proof, root)) wrong.push(`index ${i}: verified at index ${i + 1}`);
      if (merkleVerifyInclusion(i, size, leaf, [...proof, root], root)) wrong.push(`index ${i}: verified with a hash too many`);
      if (proof.length > 0 && merkleVerifyInclusion(i, size, leaf, proof.slice(0, -1), root)) wrong.push(`index ${i}: verified with a hash missing`);
    }
    expect(wrong).toEqual([]);
  });

  it.each(SIZES)('size %i: every consistency proof verifies; a flipped bit in any proof hash or either root fails it', (size) => {
    const tree = treeOf(size);
    const second = tree.root();
    const wrong: string[] = [];
    for (let m = 1; m <= size; m++) {
      const first = tree.root(m);
      const proof = tree.consistencyProof(m, size);
      if (!merkleVerifyConsistency(m, size, first, second, proof)) wrong.push(`${m} -> ${size}: did not verify`);
      const bit = (m * 53) % 256;
      proof.forEach((_, k) => {
        const changed = proof.map((h, j) => (j === k ? flipBit(h, bit) : h));
        if (merkleVerifyConsistency(m, size, first, second, changed)) wrong.push(`${m} -> ${size}: verified with proof hash ${k} changed`);
      });
      if (merkleVerifyConsistency(m, size, flipBit(first, bit), second, proof)) wrong.push(`${m} -> ${size}: verified with the first root changed`);
      if (merkleVerifyConsistency(m, size, first, flipBit(second, bit), proof)) wrong.push(`${m} -> ${size}: verified with the second root changed`);
      if (merkleVerifyConsistency(m, size, first, second, [...proof, second])) wrong.push(`${m} -> ${size}: verified with a hash too many`);
      if (proof.length > 0 && merkleVerifyConsistency(m, size, first, second, proof.slice(0, -1))) wrong.push(`${m} -> ${size}: verified with a hash missing`);
    }
    expect(wrong).toEqual([]);
  });

  it('handles sizes past 2^32 exactly (bit operations on 53-bit sizes), as the write path computes them', () => {
    // Inclusion: a proof of the right length for (index, size) with random hashes leads to one root.
    fc.assert(
      fc.property(fc.integer({ min: 2, max: Number.MAX_SAFE_INTEGER }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (size, at) => {
        const index = Math.floor(at * size);
        const proof = service.inclusionProofRanges(index, size).map(() => randomBytes(32));
        const leaf = randomBytes(32);
        const root = service.rootFromInclusionProof(index, size, leaf, proof)!;
        expect(merkleVerifyInclusion(index, size, leaf, proof, root)).toBe(true);
        expect(merkleVerifyInclusion(index, size, leaf, proof, flipBit(root, index % 256))).toBe(false);
        expect(merkleVerifyInclusion(index, size, leaf, [flipBit(proof[0], 3), ...proof.slice(1)], root)).toBe(false);
      }),
      { numRuns: 200, seed: 6962 },
    );
    // Consistency: a tree whose leaves are all equal, so that any complete subtree's hash depends only on its height.
    const complete = [service.leafHash(Buffer.from('same'))];
    for (let k = 1; k <= 53; k++) complete.push(service.nodeHash(complete[k - 1], complete[k - 1]));
    const subtree = (start: number, end: number) => service.foldAligned(service.alignedRanges(start, end).map((r) => complete[Math.log2(r.end - r.start)]));
    fc.assert(
      fc.property(fc.integer({ min: 2, max: Number.MAX_SAFE_INTEGER }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (second, at) => {
        const first = Math.max(1, Math.floor(at * second));
        const proof = service.consistencyProof(first, second, subtree);
        const [r1, r2] = [subtree(0, first), subtree(0, second)];
        expect(merkleVerifyConsistency(first, second, r1, r2, proof)).toBe(true);
        expect(merkleVerifyConsistency(first, second, r1, flipBit(r2, 9), proof)).toBe(false);
      }),
      { numRuns: 200, seed: 4122 },
    );
  });

  it('refuses malformed parameters, as the write path does', () => {
    const tree = treeOf(5);
    const [leaf, proof, root] = [tree.leafHash(2), tree.inclusionProof(2), tree.root()];
    const inclusion: Array<[number, number, Uint8Array, Uint8Array[], Uint8Array]> = [
      [-1, 5, leaf, proof, root],
      [5, 5, leaf, proof, root],
      [2, 0, leaf, proof, root],
      [2.5, 5, leaf, proof, root],
      [NaN, 5, leaf, proof, root],
      [2, 2 ** 53, leaf, proof, root],
      [2, 5, leaf.subarray(1), proof, root],
      [2, 5, leaf, [proof[0].subarray(0, 31), ...proof.slice(1)], root],
      [2, 5, leaf, [Buffer.concat([proof[0], Buffer.alloc(1)]), ...proof.slice(1)], root],
      [2, 5, leaf, proof, Buffer.concat([root, Buffer.alloc(1)])],
    ];
    for (const args of inclusion) {
      expect(merkleVerifyInclusion(...args)).toBe(false);
      expect(service.verifyInclusion(...args)).toBe(false);
    }
    expect(merkleVerifyInclusion(2, 5, leaf, proof, root)).toBe(true);
    // An interior node passed off as a leaf, with the rest of its path: the right root, but the path ends too high.
    const four = treeOf(4);
    const posing: Array<[number, number, Uint8Array, Uint8Array[], Uint8Array]> = [
      [0, 4, four.subtreeHash(0, 2), [four.subtreeHash(2, 4)], four.root()],
      [0, 4, four.root(), [], four.root()],
      [3, 5, root, [], root],
    ];
    for (const args of posing) {
      expect(merkleVerifyInclusion(...args)).toBe(false);
      expect(service.verifyInclusion(...args)).toBe(false);
    }
    const [r3, p35] = [tree.root(3), tree.consistencyProof(3, 5)];
    const consistency: Array<[number, number, Uint8Array, Uint8Array, Uint8Array[]]> = [
      [0, 5, service.emptyRoot(), root, []],
      [0, 5, service.emptyRoot(), root, p35],
      [5, 3, root, r3, p35],
      [3, 5, r3, root, []],
      [3, 3, r3, r3, p35],
      [3, 3, r3, root, []],
      [-1, 5, r3, root, p35],
      [3.5, 5, r3, root, p35],
      [3, 5, r3.subarray(2), root, p35],
      [3, 5, r3, root, [...p35.slice(1), p35[0].subarray(0, 16)]],
    ];
    for (const args of consistency) {
      expect(merkleVerifyConsistency(...args)).toBe(false);
      expect(service.verifyConsistency(...args)).toBe(false);
    }
    expect(merkleVerifyConsistency(3, 5, r3, root, p35)).toBe(true);
    expect(merkleVerifyConsistency(3, 3, r3, r3, [])).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------------------
describe('C2SP signed notes and checkpoints: what the write path signs, the verifier opens', () => {
  // Published vectors (Go's signed-note tests, a sum.golang.org checkpoint), shared with the write path's spec.
  const { peterVkey: PETER_VKEY, enochVkey: ENOCH_VKEY, text: TEXT, peterSig: PETER_SIG, enochSig: ENOCH_SIG } = GO_NOTE;
  const [SUMDB_VKEY, SUMDB_CHECKPOINT] = [SUMDB.vkey, SUMDB.checkpoints[0]];

  it("opens Go's published notes and a sum.golang.org checkpoint", () => {
    const [peter, enoch] = [readVerifierKey(PETER_VKEY), readVerifierKey(ENOCH_VKEY)];
    expect([peter.name, peter.keyIdHex, enoch.keyIdHex]).toEqual(['PeterNeumann', 'c74f20a3', 'af0cfe78']);
    const note = openSignedNote(`${TEXT}\n${PETER_SIG}${ENOCH_SIG}`, [peter, enoch]);
    expect([note.text, note.verified.map((s) => s.name), note.unknown]).toEqual([TEXT, ['PeterNeumann', 'EnochRoot'], []]);
    expect(openSignedNote(`${TEXT}\n${PETER_SIG}${ENOCH_SIG}`, [enoch]).unknown.map((s) => s.name)).toEqual(['PeterNeumann']);
    expect(() => openSignedNote(`${TEXT.replace('answer', 'ANSWER')}\n${PETER_SIG}`, [peter])).toThrow('invalid signature for key PeterNeumann+c74f20a3');
    const cp = openSignedCheckpoint(SUMDB_CHECKPOINT, [readVerifierKey(SUMDB_VKEY)], 'go.sum database tree');
    expect([cp.origin, cp.size, cp.rootHash.toString('base64'), cp.extensions]).toEqual(['go.sum database tree', 31700353, 'qINS1GRFhWHwdkUeqLEoP4yEMkTBBzxBkGwGQlVlVcs=', []]);
  });

  it("reads the write path's verifier keys, and computes the same key ids", () => {
    const name = fc.string({ unit: fc.constantFrom('a', 'Z', '0', '.', '/', '-', '_', 'é', '日', '\ud83d\ude00'), minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(name, (n) => {
        const signer = newSigner(n);
        const key = readVerifierKey(service.formatVerifierKey(signer));
        expect([key.name, key.keyIdHex, key.publicKey]).toEqual([n, service.keyIdHex(signer.keyId), signer.publicKey]);
        const raw = randomBytes(32);
        expect(noteKeyIdHex(n, raw)).toBe(service.keyIdHex(service.noteKeyId(n, raw)));
      }),
      { numRuns: 60, seed: 2024 },
    );
  });

  it('refuses malformed verifier keys with the messages the CLI prints, where the write path refuses them too', () => {
    const good = service.formatVerifierKey(newSigner('log.example'));
    const [name, id, key] = [good.slice(0, good.indexOf('+')), good.split('+')[1], good.slice(good.indexOf('+', good.indexOf('+') + 1) + 1)];
    const otherId = ((parseInt(id, 16) + 1) >>> 0).toString(16).padStart(8, '0');
    const cases: Array<[string, string]> = [
      ['log.example', 'a verifier key is <name>+<key id>+<key>'],
      [`${name}+${id}`, 'a verifier key is <name>+<key id>+<key>'],
      [`+${id}+${key}`, 'invalid key name in verifier key'],
      [`log example+${id}+${key}`, 'invalid key name in verifier key'],
      [`${name}+ABCDEF01+${key}`, 'a verifier key id is 8 lowercase hex digits'],
      [`${name}+${id.slice(1)}+${key}`, 'a verifier key id is 8 lowercase hex digits'],
      [`${name}+${id}+${key.slice(0, -4)}`, 'the verifier key is not an Ed25519 key'],
      [`${name}+${id}+${Buffer.concat([Buffer.from([2]), Buffer.from(key, 'base64').subarray(1)]).toString('base64')}`, 'the verifier key is not an Ed25519 key'],
      [`${name}+${id}+${key.slice(0, -1)}-`, 'the verifier key is not an Ed25519 key'],
      [`${name}+${id}+${key} `, 'the verifier key is not an Ed25519 key'],
      [`${name}+${otherId}+${key}`, 'the verifier key id does not match its name and key'],
      [`other+${id}+${key}`, 'the verifier key id does not match its name and key'],
    ];
    for (const [vkey, message] of cases) {
      expect(() => readVerifierKey(vkey)).toThrow(message);
      expect(refuses(() => service.parseVerifierKey(vkey))).toBe(true);
    }
  });

  it('opens random checkpoints the write path signs, with the body the write path parses', () => {
    const signers = [newSigner('log.example'), newSigner('log.example'), newSigner('witness.example')];
    const keys = signers.map((s) => readVerifierKey(service.formatVerifierKey(s)));
    const line = fc.string({ unit: fc.constantFrom('a', 'b', '/', ':', ' ', '.', 'é', '\ud83d\ude00', '—', '+'), minLength: 1, maxLength: 20 }).filter((l) => l.trim() === l && l !== '');
    fc.assert(
      fc.property(
        line,
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.array(line, { maxLength: 2 }),
        fc.subarray([0, 1, 2], { minLength: 1 }),
        (origin, size, root, extensions, which) => {
          const body = service.formatCheckpoint({ origin, size, rootHash: root, extensions });
          const signed = service.signNote(body, which.map((i) => signers[i]));
          const cp = openSignedCheckpoint(signed, keys, origin);
          const theirs = service.parseCheckpoint(body);
          expect([cp.origin, cp.size, cp.rootHash, cp.extensions]).toEqual([theirs.origin, theirs.size, theirs.rootHash, theirs.extensions]);
          expect(cp.note.verified.map((s) => s.keyIdHex)).toEqual(which.map((i) => keys[i].keyIdHex));
          // With only the first signer's key trusted, the others are listed as unknown, or nothing verifies.
          const onlyFirst = () => openSignedCheckpoint(signed, [keys[which[0]]]);
          expect(onlyFirst().note.unknown.length).toBe(which.length - 1);
          expect(() => openSignedCheckpoint(signed, keys.filter((_, i) => !which.includes(i)))).toThrow('no signature by a known key');
        },
      ),
      { numRuns: 60, seed: 1216 },
    );
  });

  it('refuses a signed checkpoint with any one byte changed, as the write path does', () => {
    const signer = newSigner('log.example');
    const key = readVerifierKey(service.formatVerifierKey(signer));
    const note = service.signCheckpoint({ origin: 'log.example/acme', size: 12345, rootHash: randomBytes(32) }, [signer]);
    expect(openSignedCheckpoint(note, [key]).size).toBe(12345);
    const bytes = Buffer.from(note, 'utf8');
    const accepted: number[] = [];
    for (let i = 0; i < bytes.length; i++) {
      for (const mask of [0x01, 0x20]) {
        const changed = Buffer.from(bytes);
        changed[i] ^= mask;
        const text = changed.toString('utf8');
        if (!refuses(() => openSignedCheckpoint(text, [key]))) accepted.push(i);
        // Same verdict on the write path's side.
        expect(refuses(() => service.openCheckpoint(text, [signer]))).toBe(true);
      }
    }
    expect(accepted).toEqual([]);
  });

  it('refuses a wrong key, a forged key and a wrong origin, saying which', () => {
    const signer = newSigner('log.example');
    const note = service.signCheckpoint({ origin: 'log.example/acme', size: 3, rootHash: service.emptyRoot() }, [signer]);
    const right = readVerifierKey(service.formatVerifierKey(signer));
    const other = readVerifierKey(service.formatVerifierKey(newSigner('log.example')));
    expect(() => openSignedCheckpoint(note, [other])).toThrow('no signature by a known key');
    // The right name and key id, another public key: the Ed25519 check itself must fail.
    const impostor: TrustedNoteKey = { ...right, publicKey: other.publicKey, keyObject: other.keyObject };
    expect(() => openSignedCheckpoint(note, [impostor])).toThrow(`invalid signature for key log.example+${right.keyIdHex}`);
    expect(() => openSignedCheckpoint(note, [right, impostor])).toThrow(`ambiguous key log.example+${right.keyIdHex}`);
    expect(() => openSignedCheckpoint(note, [right], 'log.example/other')).toThrow('checkpoint origin "log.example/acme" is not "log.example/other"');
    expect(openSignedCheckpoint(note, [other, right], 'log.example/acme').note.verified.map((s) => s.name)).toEqual(['log.example']);
  });

  it('refuses malformed notes and checkpoint bodies, as the write path does', () => {
    const signer = newSigner('log.example');
    const key = readVerifierKey(service.formatVerifierKey(signer));
    const signedBody = (body: string) => service.signNote(body, [signer]);
    const root = service.emptyRoot().toString('base64');
    const cases: Array<[string, string]> = [
      ['origin\n1\n', 'malformed note'],
      [signedBody(`o\n1\n${root}\n`).slice(0, -1), 'malformed note'],
      [signedBody(`o\n1\n${root}\n`).replace('\u2014 ', '- '), 'malformed note'],
      [signedBody(`o\n1\n${root}\n`).replace(' log.example ', ' log example '), 'malformed note'],
      [`${signedBody(`o\n1\n${root}\n`)}extra line\n`, 'malformed note'],
      [`\u0001${signedBody(`o\n1\n${root}\n`)}`, 'malformed note'],
      [signedBody(`o\n1\n`), 'checkpoint body needs origin, size and root hash lines'],
      [signedBody(`o\n01\n${root}\n`), 'tree size is not a decimal number'],
      [signedBody(`o\n+1\n${root}\n`), 'tree size is not a decimal number'],
      [signedBody(`o\n9007199254740992\n${root}\n`), 'tree size is too large'],
      [signedBody(`o\n1\n${root.slice(0, -1)}\n`), 'root hash is not 32 bytes of base64'],
      [signedBody(`o\n1\n${Buffer.alloc(31).toString('base64')}\n`), 'root hash is not 32 bytes of base64'],
      [signedBody(`o\n1\n${root.replace(/\+/g, '-').replace(/\//g, '_')}x\n`), 'root hash is not 32 bytes of base64'],
    ];
    for (const [note, message] of cases) {
      expect(() => openSignedCheckpoint(note, [key])).toThrow(message);
      expect(refuses(() => service.openCheckpoint(note, [signer]))).toBe(true);
    }
    // Extension lines after the root hash are part of the body (C2SP tlog-checkpoint).
    expect(openSignedCheckpoint(signedBody(`o\n1\n${root}\nan extension\n`), [key]).extensions).toEqual(['an extension']);
  });
});

// ---------------------------------------------------------------------------------------------------------------
describe('DSSE v1: envelopes the service signs verify with the verifier, and fail when tampered', () => {
  it("writes the protocol's PAE example, and the same PAE as the write path for any type and body", () => {
    expect(dssePae('http://example.com/HelloWorld', Buffer.from('hello world')).toString()).toBe('DSSEv1 29 http://example.com/HelloWorld 11 hello world');
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.uint8Array({ maxLength: 300 }), (type, body) => {
        expect(dssePae(type, body)).toEqual(service.pae(type, body));
      }),
      { numRuns: 200, seed: 7 },
    );
  });

  const signer = newSigner('log.example');
  const key = readVerifierKey(service.formatVerifierKey(signer));
  const hex = (s: string) => service.canonicalSha256(s);

  function signedDecision(allowed: boolean, trailInput: unknown) {
    const statement = service.buildVsaStatement({
      verifierId: 'https://veritrail.example',
      veritrailVersion: '0.1.0',
      regoVersion: '1.0.0',
      timeVerified: new Date(0),
      evaluationUrl: 'https://veritrail.example/api/v2/evaluations/acme/e1',
      policySha256: hex('policy'),
      trails: [{ org: 'acme', flow: 'f', trail: 't', moment: 1, input: trailInput }],
      inputAttestations: [{ uri: 'https://veritrail.example/api/v2/attestations/acme?attestation_id=a1', recordSha256: hex('a1') }],
      allowed,
    });
    // As the service signs a decision and serves it: the envelope's canonical JSON.
    const signed = service.signStatement(statement, [signer]);
    return { statement, served: JSON.parse(signed.canonical) as service.DsseEnvelope };
  }

  it('verifies signed decisions and returns the signed statement', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.jsonValue(), (allowed, input) => {
        const { statement, served } = signedDecision(allowed, input);
        const opened = openDsseEnvelope(served, [key]);
        expect(opened.payload).toEqual(service.canonicalJsonBytes(statement));
        expect(jcsCanonicalize(JSON.parse(opened.payload.toString('utf8')))).toBe(opened.payload.toString('utf8'));
        expect([opened.payloadType, opened.verifiedKeyIds]).toEqual(['application/vnd.in-toto+json', [key.keyIdHex]]);
      }),
      { numRuns: 50, seed: 37 },
    );
  });

  it('fails on any changed payload bit, payload type, signature or key id, and on a wrong key', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), (input, at) => {
        const { served } = signedDecision(true, input);
        const payload = Buffer.from(served.payload, 'base64');
        const changed = { ...served, payload: flipBit(payload, at % (payload.length * 8)).toString('base64') };
        expect(() => openDsseEnvelope(changed, [key])).toThrow(`invalid signature for key id ${key.keyIdHex}`);
        const sig = Buffer.from(served.signatures[0].sig, 'base64');
        const badSig = { ...served, signatures: [{ ...served.signatures[0], sig: flipBit(sig, at % 512).toString('base64') }] };
        expect(() => openDsseEnvelope(badSig, [key])).toThrow(`invalid signature for key id ${key.keyIdHex}`);
      }),
      { numRuns: 100, seed: 38 },
    );
    const { served } = signedDecision(false, { a: 1 });
    expect(() => openDsseEnvelope({ ...served, payloadType: 'application/json' }, [key])).toThrow('invalid signature');
    expect(() => openDsseEnvelope({ ...served, signatures: [{ ...served.signatures[0], keyid: '00000000' }] }, [key])).toThrow('no signature by a known key');
    expect(() => openDsseEnvelope({ ...served, signatures: [] }, [key])).toThrow('no signature by a known key');
    expect(() => openDsseEnvelope(served, [readVerifierKey(service.formatVerifierKey(newSigner('log.example')))])).toThrow('no signature by a known key');
    const impostor: TrustedNoteKey = { ...key, keyObject: generateKeyPairSync('ed25519').publicKey };
    expect(() => openDsseEnvelope(served, [impostor])).toThrow(`invalid signature for key id ${key.keyIdHex}`);
    expect(() => openDsseEnvelope({ ...served, payload: `${served.payload}\n` }, [key])).toThrow('payload is not canonical base64');
    for (const bad of [null, 'text', {}, { ...served, signatures: 'x' }, { ...served, payload: 1 }]) expect(() => openDsseEnvelope(bad, [key])).toThrow('not a DSSE envelope');
    // Signatures by keys not trusted are ignored, never a reason to refuse; one by a trusted key that fails is.
    const other = newSigner('other.example');
    const extra = service.signEnvelope(served.payloadType, Buffer.from(served.payload, 'base64'), [other]).signatures[0];
    expect(openDsseEnvelope({ ...served, signatures: [extra, ...served.signatures] }, [key]).verifiedKeyIds).toEqual([key.keyIdHex]);
    expect(() => openDsseEnvelope({ ...served, signatures: [...served.signatures, { keyid: key.keyIdHex, sig: extra.sig }] }, [key])).toThrow('invalid signature');
    // The write path's own verifier gives the same verdicts.
    expect(service.verifyEnvelope(served, [signer]).payload).toEqual(openDsseEnvelope(served, [key]).payload);
  });
});
