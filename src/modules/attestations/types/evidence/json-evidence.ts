import { PayloadTooLargeError } from '../../../../common/errors/app-error';
import { EvidenceFormatError } from './evidence-format-error';
import { walkEvidenceFiles } from './evidence-files';

/** A JSON file inside an archive is parsed whole; past this size it is not a scan report anyone attaches. */
const MAX_JSON_FILE_BYTES = 16 * 1024 * 1024;

export interface JsonFile {
  name: string;
  value: unknown;
}

/**
 * The JSON documents of an attachment: the file itself when it is JSON (its first character is `{` or `[`), or
 * the `*.json` / `*.sarif` files of a gzipped tar. A file that starts like JSON but does not parse is a 400
 * (EvidenceFormatError); an attachment with no JSON in it (a PDF, a screenshot) gives no document.
 */
export async function jsonFilesOf(content: Buffer, filename: string): Promise<JsonFile[]> {
  const files: JsonFile[] = [];
  let archived = false;
  await walkEvidenceFiles(content, filename, (name) => {
    archived ||= name !== filename;
    if (archived && !/\.(json|sarif)$/i.test(name)) return null;
    const chunks: Buffer[] = [];
    let size = 0;
    return {
      write(chunk) {
        size += chunk.length;
        if (size > MAX_JSON_FILE_BYTES) throw new PayloadTooLargeError(`${name} in the attachment is larger than ${MAX_JSON_FILE_BYTES} bytes`);
        chunks.push(Buffer.from(chunk));
      },
      end() {
        const text = Buffer.concat(chunks, size).toString('utf8').replace(/^\uFEFF/, '');
        if (!/^\s*[[{]/.test(text)) return;
        try {
          files.push({ name, value: JSON.parse(text) });
        } catch (error) {
          throw new EvidenceFormatError(`${name} is not valid JSON: ${(error as Error).message}`);
        }
      },
    };
  });
  return files;
}
