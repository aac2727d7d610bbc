import * as path from 'node:path';

/**
 * Import this first in a spec that breaks the upload folder (removes it, puts a file in its place): the app it
 * starts then stages uploads in a folder of its own, not in the one every other run on the machine shares.
 * (UPLOAD_DIR is fixed when attachment-sink.ts loads; the real `os` module is used, not an interop copy, so the
 * spy reaches the sink.)
 */
// eslint-disable-next-line @typescript-eslint/no-var-requires
const os = require('node:os') as typeof import('node:os');
// eslint-disable-next-line @typescript-eslint/no-var-requires
const fs = require('node:fs') as typeof import('node:fs');

export const PRIVATE_TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'vt-uploads-'));
const tmpdir = jest.spyOn(os, 'tmpdir').mockReturnValue(PRIVATE_TMP);
try {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  require('../../src/modules/attestations/upload/attachment-sink');
} finally {
  tmpdir.mockRestore();
}
