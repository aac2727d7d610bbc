/**
 * providers.aws.sign_req: AWS Signature Version 4 over a request object (no network involved; the caller passes
 * credentials and the signing time), producing the same headers as OPA.
 */
import { createHash, createHmac } from 'crypto';
import { Value, PlainObject, isObject, objGet, objEntries, makeObject, compareStrings } from '../value';
import * as N from '../number';
import type { BuiltinImpl } from './contract';
import { BuiltinError, BuiltinTypeError } from './errors';
import { obj, typeErr } from './operands';
import { marshalJSON } from './json-text';
import { civil, formatTime } from './go-time';

const IGNORED = new Set(['authorization', 'user-agent', 'x-amzn-trace-id']);
const REQUIRED_CONFIG = ['aws_access_key', 'aws_region', 'aws_secret_access_key', 'aws_service'];

function strOf(v: Value | undefined): string {
  return typeof v === 'string' ? v : '';
}

function hmac(key: Buffer | string, msg: string): Buffer {
  return createHmac('sha256', key).update(msg, 'utf8').digest();
}

/** Host (with port), escaped path and raw query of a URL, as Go's url.URL exposes them. */
function urlParts(u: string): { host: string; path: string; query: string } {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*:)?(\/\/([^/?#]*))?([^?#]*)(\?([^#]*))?/.exec(u);
  if (!m) throw new BuiltinError(`parse ${JSON.stringify(u)}: invalid URL`);
  const authority = m[3] ?? '';
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  let path = m[4] ?? '';
  if (!/^[A-Za-z0-9\-._~!$&'()*+,;=:@/%[\]]*$/.test(path)) {
    path = Array.from(Buffer.from(decodeURIComponent(path), 'utf8'), (b) => {
      const c = String.fromCharCode(b);
      return /[A-Za-z0-9\-_.~$&+,/:;=@]/.test(c) ? c : '%' + b.toString(16).toUpperCase().padStart(2, '0');
    }).join('');
  }
  return { host, path, query: m[6] ?? '' };
}

function signReq(req: PlainObject, config: PlainObject, timeNs: bigint): Value {
  const missing = REQUIRED_CONFIG.filter((k) => objGet(config, k) === undefined);
  if (missing.length) throw new BuiltinTypeError(`operand 2 missing required AWS config parameters(s): {${missing.map((k) => JSON.stringify(k)).join(', ')}}`);
  const invalid = REQUIRED_CONFIG.filter((k) => typeof objGet(config, k) !== 'string');
  if (invalid.length) throw new BuiltinTypeError(`operand 2 invalid values for required AWS config parameters(s): {${invalid.map((k) => JSON.stringify(k)).join(', ')}}`);
  const service = strOf(objGet(config, 'aws_service'));
  const region = strOf(objGet(config, 'aws_region'));
  const accessKey = strOf(objGet(config, 'aws_access_key'));
  const secretKey = strOf(objGet(config, 'aws_secret_access_key'));
  const sessionToken = strOf(objGet(config, 'aws_session_token'));
  const dps = objGet(config, 'disable_payload_signing');
  if (dps !== undefined && typeof dps !== 'boolean') throw new BuiltinTypeError("operand 2 invalid value for 'disable_payload_signing' in AWS config");

  const url = objGet(req, 'url');
  const method = objGet(req, 'method');
  const bad = [typeof url !== 'string' ? '"url"' : '', typeof method !== 'string' ? '"method"' : ''].filter(Boolean);
  if (bad.length) throw new BuiltinTypeError(`operand 1 invalid values for required request parameters(s): {${bad.join(', ')}}`);
  const headersV = objGet(req, 'headers') ?? {};
  if (!isObject(headersV)) throw typeErr(1, headersV, 'object');
  const headers = new Map<string, string>();
  for (const [k, v] of objEntries(headersV)) headers.set(strOf(k), strOf(v));

  const rawBody = objGet(req, 'raw_body');
  const body = objGet(req, 'body');
  const bodyText = rawBody !== undefined ? strOf(rawBody) : body !== undefined ? marshalJSON(body) : '';
  const contentSha = dps === true ? 'UNSIGNED-PAYLOAD' : createHash('sha256').update(bodyText, 'utf8').digest('hex');

  const c = civil(timeNs);
  const dateNow = formatTime(c, '20060102');
  const isoNow = formatTime(c, '20060102T150405Z');
  const u = urlParts(url as string);
  const awsHeaders = new Map<string, string>([
    ['host', u.host],
    ['x-amz-date', isoNow],
  ]);
  if (service === 's3' || service === 'glacier') awsHeaders.set('x-amz-content-sha256', contentSha);
  if (sessionToken) awsHeaders.set('x-amz-security-token', sessionToken);

  const toSign = new Map<string, string>(awsHeaders);
  for (const [k, v] of headers) {
    const lk = k.toLowerCase();
    if (!IGNORED.has(lk)) toSign.set(lk, v);
  }
  const keys = Array.from(toSign.keys()).sort(compareStrings);
  let canonical = `${method}\n${u.path}\n${u.query}\n`;
  for (const k of keys) canonical += `${k}:${toSign.get(k)}\n`;
  const signedHeaders = keys.join(';');
  canonical += `\n${signedHeaders}\n${contentSha}`;

  const scope = `${dateNow}/${region}/${service}/aws4_request`;
  const strToSign = `AWS4-HMAC-SHA256\n${isoNow}\n${scope}\n${createHash('sha256').update(canonical, 'utf8').digest('hex')}`;
  let key = hmac('AWS4' + secretKey, dateNow);
  key = hmac(key, region);
  key = hmac(key, service);
  key = hmac(key, 'aws4_request');
  const signature = hmac(key, strToSign).toString('hex');
  const auth = `AWS4-HMAC-SHA256 Credential=${accessKey}/${scope},SignedHeaders=${signedHeaders},Signature=${signature}`;

  const outHeaders: [Value, Value][] = Array.from(headers.entries());
  outHeaders.push(['Authorization', auth]);
  for (const [k, v] of awsHeaders) outHeaders.push([k, v]);
  const out: [Value, Value][] = objEntries(req).filter(([k]) => k !== 'headers');
  out.push(['headers', makeObject(outHeaders)]);
  return makeObject(out);
}

export const AWS: Record<string, BuiltinImpl> = {
  'providers.aws.sign_req': (args) => {
    const req = obj(args, 0) as PlainObject;
    const config = obj(args, 1) as PlainObject;
    const t = args[2];
    if (!N.isNumOrBig(t)) throw typeErr(3, t, 'number');
    if (!N.isInt(t)) throw new BuiltinTypeError('operand 3 could not convert time_ns value into a unix timestamp');
    return signReq(req, config, N.toBigInt(t as N.Num));
  },
};
