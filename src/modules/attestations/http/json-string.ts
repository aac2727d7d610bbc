/**
 * A "string body" (decisions.md) is a JSON string with `Content-Type: application/json`. Routes that answer one
 * set the header (`@Header('Content-Type', 'application/json; charset=utf-8')`) and return `toJsonString(text)`;
 * Nest sends a returned string as it is.
 */
export function toJsonString(text: string): string {
  return JSON.stringify(text);
}
