/** The "format" checks of gojsonschema; non-strings always pass, unknown formats pass. */
import { Value } from '../value';
import { parseIP } from './net';
import { compileRegex } from './regex';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(\.\d+)?([zZ]|[+-]\d{2}:\d{2})$/;
const EMAIL = /^[^@\s]+@[^@\s]+$/;
const HOSTNAME = /^(?=.{1,253}\.?$)[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*\.?$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const JSON_POINTER = /^(\/([^~/]|~[01])*)*$/;
const REL_JSON_POINTER = /^(0|[1-9]\d*)(#|(\/([^~/]|~[01])*)*)$/;
const URI_TEMPLATE = /^([^{}]|\{[^{}]*\})*$/;

function validDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1];
}

function validTime(s: string): boolean {
  const m = TIME.exec(s);
  if (!m) return false;
  return Number(m[1]) < 24 && Number(m[2]) < 60 && Number(m[3]) < 61;
}

function validURI(s: string, requireScheme: boolean): boolean {
  // eslint-disable-next-line no-control-regex
  if (/[\s\x00-\x1f"<>\\^`{|}]/.test(s)) return false;
  const scheme = /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(s);
  return requireScheme ? scheme : true;
}

export function checkFormat(format: string, v: Value): boolean {
  if (typeof v !== 'string') return true;
  switch (format) {
    case 'date-time': {
      const i = v.search(/[tT]/);
      return i > 0 && validDate(v.slice(0, i)) && validTime(v.slice(i + 1));
    }
    case 'date':
      return validDate(v);
    case 'time':
      return validTime(v);
    case 'email':
    case 'idn-email':
      return EMAIL.test(v);
    case 'hostname':
    case 'idn-hostname':
      return HOSTNAME.test(v);
    case 'ipv4': {
      const ip = parseIP(v);
      return !!ip && !ip.v6;
    }
    case 'ipv6': {
      const ip = parseIP(v);
      return !!ip && ip.v6;
    }
    case 'uri':
    case 'iri':
      return validURI(v, true);
    case 'uri-reference':
    case 'iri-reference':
      return validURI(v, false);
    case 'uri-template':
      return URI_TEMPLATE.test(v);
    case 'uuid':
      return UUID.test(v);
    case 'regex':
      try {
        compileRegex(v);
        return true;
      } catch {
        return false;
      }
    case 'json-pointer':
      return JSON_POINTER.test(v);
    case 'relative-json-pointer':
      return REL_JSON_POINTER.test(v);
    default:
      return true;
  }
}
