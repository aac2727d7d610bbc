/** All builtin implementations, by name, gathered from the family files. */
import type { BuiltinImpl } from './contract';
import { COMPARISON } from './comparison';
import { ARITHMETIC } from './arithmetic';
import { AGGREGATES } from './aggregates';
import { ARRAYS } from './arrays';
import { SETS } from './sets';
import { OBJECTS } from './objects';
import { STRINGS } from './strings';
import { SPRINTF } from './sprintf';
import { TYPES } from './types';
import { REGEX } from './regex';
import { GLOB } from './glob';
import { ENCODING } from './encoding';
import { TIME } from './time';
import { SEMVER_BUILTINS } from './semver';
import { UNITS } from './units';
import { UUID } from './uuid';
import { GRAPH } from './graph';
import { NET } from './net';
import { CRYPTO } from './crypto';
import { JWT } from './jwt';
import { MISC } from './misc';
import { JSON_SCHEMA } from './json-schema';
import { X509 } from './x509';
import { AWS } from './aws';

export const IMPLS: Record<string, BuiltinImpl> = Object.assign(
  Object.create(null),
  COMPARISON,
  ARITHMETIC,
  AGGREGATES,
  ARRAYS,
  SETS,
  OBJECTS,
  STRINGS,
  SPRINTF,
  TYPES,
  REGEX,
  GLOB,
  ENCODING,
  TIME,
  SEMVER_BUILTINS,
  UNITS,
  UUID,
  GRAPH,
  NET,
  CRYPTO,
  JWT,
  MISC,
  JSON_SCHEMA,
  X509,
  AWS,
);
