import { StreamableFile } from '@nestjs/common';
import { isValidMediaType } from '../../../common/http/media-type';
import { EvidenceDownload } from '../queries/get-attestation-evidence/get-attestation-evidence.query';

/** `attachment; filename="..."` with an ASCII fallback and the exact name in RFC 5987 form. */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const exact = encodeURIComponent(filename).replace(/['()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

export function toStreamableFile(download: EvidenceDownload): StreamableFile {
  return new StreamableFile(download.content, {
    // Rows stored before uploads were checked may hold a type no header can carry: those download as bytes.
    type: isValidMediaType(download.contentType) ? download.contentType : 'application/octet-stream',
    disposition: contentDisposition(download.filename),
    length: download.size,
  });
}
