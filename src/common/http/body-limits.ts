/**
 * Size limits of request bodies that the edge and the multipart readers share. `BODY_LIMIT_MB` (config) bounds a
 * JSON body and the text of a form; a multipart body may carry one file on top of that.
 */

/** The largest attachment (and flow template) file: 10 MB, the limit the open-source CLI's service documents. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** The largest multipart text field (`data_json`): a JSON document; 1 MB is far more than any real one. */
export const MAX_FORM_FIELD_BYTES = 1024 * 1024;

/** The bytes on the wire past which the edge answers 413 and closes the connection, whatever the route. */
export function wireLimitBytes(bodyLimitBytes: number, multipart: boolean): number {
  return multipart ? bodyLimitBytes + MAX_FILE_BYTES : bodyLimitBytes;
}
