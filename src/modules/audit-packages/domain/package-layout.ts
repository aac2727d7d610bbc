/** What an audit package's manifest says (README.txt in the package explains how to check it). */
export interface PackageManifest {
  format: 'veritrail-audit-package/v1';
  org: string;
  subject: { kind: 'trail'; flow: string; trail: string } | { kind: 'artifact'; flow: string; fingerprint: string };
  generated_at: string;
  /** The signed checkpoint every proof in the package is made against. */
  checkpoint: { origin: string; size: number; root_hash: string };
  /** Each record and where its log entry is; `index` null when the record has no entry covered by the checkpoint. */
  records: Array<{ kind: string; id: string; file: string; index: number | null }>;
  /** Log entries of this trail whose record the service could not include (it no longer has them). */
  missing_records: Array<{ kind: string; id: string; index: number }>;
  /**
   * Attachments the service could not include: missing, or their bytes no longer match their digest (such bytes
   * may be in the archive, since attachments are streamed, but are then left out of `files`).
   */
  missing_evidence: Array<{ attestation_id: string; sha256: string; reason: string }>;
  /** SHA-256 (hex) of every other file of the package. */
  files: Record<string, string>;
}

export const PACKAGE_README = `Veritrail audit package
=======================

This archive holds a trail's records, the evidence attached to them, the signed decisions (evaluations) that
covered it, and the evidence-log material that proves none of it was changed, removed or reordered since it was
recorded. Check it offline, with nothing but Node.js and the Veritrail verifier:

  npm run verify -- package <this file.tar.gz> --key <verifier key, or a saved keys.json>
  npm run verify -- package <this file.tar.gz> --key <...> --replay   # also re-runs every evaluation

Obtain the verifier key independently of this package (GET /api/v2/log/keys on the service, or from whoever
operates it); log/keys.json inside the package is only trusted with --trust-package-keys, and the report says so.

Files
- manifest.json            org, subject, generation time, the checkpoint used, the records and their log
                           indexes, and the SHA-256 of every other file
- trail.json               the trail as GET /api/v2/trails/{org}/{flow}/{trail} returned it (a trail's package)
- artifact.json            the artifact as GET /api/v2/artifacts/{org}/{flow}/fingerprint/{fingerprint} returned
                           it (an artifact's package: its attestations, in the trail that reported it)
- attestations/<id>.json   each attestation as GET /api/v2/attestations/{org}?attestation_id=<id> returns it
                           (RFC 8785 canonical JSON; its SHA-256 is its log entry's record_sha256)
- evidence/<sha256>        each attachment's bytes, named by their SHA-256 (one the manifest lists in
                           missing_evidence and not in its files is not what its attestation recorded, or
                           was cut short by a failed read and padded with zeros; one missing from the store
                           is only listed there)
- moments/<trail>/<n>.json the trail as of moment n, as GET /api/v2/trails/{org}/{flow}/{trail}/moments/{n}
                           returns it: the record of the log entries of the trail begun or updated (kind trail)
                           and of an artifact reported (kind artifact) at that moment
- evaluations/<id>.json    each evaluation that covered the trail; <id>.dsse.json its signed statement (DSSE,
                           in-toto Statement v1, SLSA VSA v1), whose SHA-256 is its log entry's record_sha256
- evaluations/<id>.input.json  what replaying it needs: the input document it evaluated (its SHA-256 is the
                           evaluation's input_digest), its params and its time.now_ns()
- policies/<sha256>/...    each evaluation's policy bundle, by bundle digest
- log/checkpoint           the signed checkpoint (C2SP signed note) all proofs are made against
- log/keys.json            the log's public keys as GET /api/v2/log/keys returned them
- log/leaves/<index>.json  each log entry: {index, leaf, leaf_hash}
- log/proofs/<index>.json  its RFC 9162 inclusion proof at the checkpoint's size

What the verifier checks: the checkpoint's signature; every file against the manifest; each record's canonical
SHA-256 against its leaf (for a moment, also that the leaf names that moment of the package's flow); each leaf's hash and inclusion proof against the checkpoint's root; each attachment
against its attestation's digest; each signed statement's signature, subjects, policy and input attestations.
`;
