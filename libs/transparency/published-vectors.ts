/**
 * Published test vectors both implementations of the signed-note format are checked against (the write path's
 * `src/note.spec.ts` and the verifier's `verifier/formats/formats.spec.ts`): data only, for specs.
 */

/**
 * Go's golang.org/x/mod/sumdb/note tests: the private key
 * "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz" (0x01 || 32-byte seed), its
 * verifier key, a second key (EnochRoot) and the text both signed. Ed25519 is deterministic, so signing the same
 * text with the same seed must give the published signature byte for byte.
 */
export const GO_NOTE = {
  peterSeed: Buffer.from('AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz', 'base64').subarray(1),
  peterVkey: 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW',
  enochVkey: 'EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop',
  text: "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n",
  peterSig: '— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n',
  enochSig: '— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n',
};

/**
 * Checkpoints signed by the public Go checksum database (sum.golang.org), an Ed25519 C2SP log. Its verifier key is
 * the one compiled into the go command (also in golang.org/x/mod gosumcheck/main.go). The first checkpoint is
 * quoted in transparency-dev's Go checkpoint-parsing benchmark, the second in a public write-up on checkpoints.
 */
export const SUMDB = {
  vkey: 'sum.golang.org+033de0ae+Ac4zctda0e5eza+HJyk9SxEdh+s3Ux18htTTAD8OuAn8',
  checkpoints: [
    'go.sum database tree\n31700353\nqINS1GRFhWHwdkUeqLEoP4yEMkTBBzxBkGwGQlVlVcs=\n\n— sum.golang.org Az3grnmrIUEDFqHzAElIQCPNoRFRAAdFo47fooyWKMHb89k11GJh5zHIfNCOBmwn/C3YI8oW9/C8DJ87F61QqspBYwM=\n',
    'go.sum database tree\n15368405\n/g9am3I6YWNKaZX/jkne1fqd9zEyjss+JXyPXG0WfkY=\n\n— sum.golang.org Az3grqJGUaSGukG9p8nI2vKgiFn7qGHxn0W+mrwyI6Gz3F0t1J3LzmWk/p96Ybf295EjwdSwlzgijq5WA9d1Ded7owM=\n',
  ],
};
