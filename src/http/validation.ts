/**
 * Request parameter validation. Each route declares one TypeBox object schema for its parameters;
 * that schema validates the merged query+body, types the handler, and documents the route.
 * Every failing parameter is reported at once, in the sentences of errors.ts.
 */
import { type Static, type TObject, type TSchema, Type } from "@sinclair/typebox";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { AppError, type ErrorMessages, msg } from "../errors.js";
import { parsePhoneNumberFromString } from "libphonenumber-js/min";
import { MAC_RE } from "../mac-address.js";
import { isCountryCode } from "./countries.js";
import { DAY_MS } from "../durations.js";

const MAX_ID = 2147483647;

const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: true, verbose: true });

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
export function isCalendarDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dt = new Date(Date.UTC(y, mo - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d && y >= 1900;
}

const zoneSet = new Set(Intl.supportedValuesOf("timeZone"));
/** A real IANA zone in Region/City form (aliases such as Asia/Calcutta included). */
export function isRegionCityZone(s: string): boolean {
  if (!/^[A-Za-z]+\/[A-Za-z0-9_+\-/]+$/.test(s) || s.startsWith("Etc/")) return false;
  if (zoneSet.has(s)) return true;
  try {
    new Intl.DateTimeFormat("en", { timeZone: s });
    return true;
  } catch {
    return false;
  }
}

export function isHttpUrl(s: string): boolean {
  if (!/^https?:\/\//i.test(s)) return false;
  try {
    const u = new URL(s);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname.length > 0;
  } catch {
    return false;
  }
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
export function isIp(s: string): boolean {
  if (IPV4.test(s)) return true;
  try {
    return s.includes(":") && new URL(`http://[${s}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}

const US_PHONE = /^\(\d{3}\)\d{3}-\d{4}$/;
const SPEC_INTL_PHONE = /^\+\d{1,3}\(\d{3}\)\d{3}-\d{4}$/;
/**
 * An international number as people write it: a leading `+` and its country code, then digits with
 * spaces, dashes, dots or brackets between them (`+44 117 496 0123`, `+1 (416) 555-0199`), of a
 * length that country's numbers can have (libphonenumber's metadata). A number without its country
 * code is refused: it cannot be dialled from another country, and guessing the country is wrong for
 * a chain that spans several.
 */
export function isInternationalPhone(s: string): boolean {
  if (!/^\+\d[\d ().-]{3,24}\d$/.test(s) || /[ ().-]{3}/.test(s)) return false;
  return parsePhoneNumberFromString(s)?.isPossible() === true;
}

/** Control characters (C0, DEL, C1), lone surrogates, and the Unicode line and paragraph separators. */
const CONTROL = /[\p{Cc}\p{Cs}\u2028\u2029]/u;
/** A name as people write one (any script, spaces, punctuation), not blank and without control characters. */
export function isName(s: string): boolean {
  return s.trim().length > 0 && !CONTROL.test(s);
}
/** An SSID as IEEE 802.11 allows: 1 to 32 bytes of UTF-8, here without control characters. */
export function isSsid(s: string): boolean {
  const bytes = Buffer.byteLength(s, "utf8");
  return bytes >= 1 && bytes <= 32 && !CONTROL.test(s);
}

const FORMATS: Record<string, { check: (s: string) => boolean; sentence: (p: string) => string }> = {
  date: { check: isCalendarDate, sentence: msg.date },
  email: {
    check: (s) => /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/u.test(s) && s.length <= 254,
    sentence: (p) => msg.email(p),
  },
  country: { check: isCountryCode, sentence: msg.invalid },
  timezone: { check: isRegionCityZone, sentence: msg.invalid },
  // The specification's own forms stay accepted exactly; international numbers as written are too.
  "phone-us": { check: (s) => US_PHONE.test(s) || isInternationalPhone(s), sentence: msg.format },
  "phone-intl": { check: (s) => SPEC_INTL_PHONE.test(s) || isInternationalPhone(s), sentence: msg.format },
  "phone-intl-or-empty": { check: (s) => s === "" || SPEC_INTL_PHONE.test(s) || isInternationalPhone(s), sentence: msg.format },
  mac: { check: (s) => MAC_RE.test(s), sentence: msg.format },
  "hex-color": { check: (s) => /^([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$/.test(s), sentence: msg.format },
  "http-url": { check: isHttpUrl, sentence: msg.url },
  "http-url-or-empty": { check: (s) => s === "" || isHttpUrl(s), sentence: msg.url },
  ip: { check: isIp, sentence: msg.format },
  "ip-or-empty": { check: (s) => s === "" || isIp(s), sentence: msg.format },
  ssid: { check: isSsid, sentence: msg.format },
  name: { check: isName, sentence: msg.format },
};
for (const [name, f] of Object.entries(FORMATS)) ajv.addFormat(name, { type: "string", validate: f.check });

/** Field builders shared by every module's schemas. */
export const F = {
  id: (description: string) => Type.Integer({ minimum: 1, maximum: MAX_ID, description, "x-error": "invalid" }),
  idOrZero: (description: string) =>
    Type.Integer({ minimum: 0, maximum: MAX_ID, description, "x-error": "invalid" }),
  idList: (description: string) => Type.String({ maxLength: 2000, description, examples: ["1,2,3"] }),
  date: (description: string) => Type.String({ format: "date", maxLength: 10, description, examples: ["2026-11-01"] }),
  text: (max: number, description: string, extra: Record<string, unknown> = {}) =>
    Type.String({ maxLength: max, description, ...extra }),
  flag: (description: string) =>
    Type.Union([Type.Literal("0"), Type.Literal("1")], { description, "x-error": "oneOf", "x-values": ["0", "1"] }),
  bool: (description: string) => Type.Boolean({ description }),
  identifier: () =>
    Type.Optional(Type.String({ maxLength: 255, description: "The caller's API identifier (also accepted as an `identifier` header or `Authorization: Bearer`)." })),
};

/** Turn form strings into the types the schema asks for, strictly ("0x10" is not an integer). */
function coerce(schema: TObject, input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const prop = schema.properties[key] as TSchema | undefined;
    if (!prop) continue; // unknown parameters are ignored, as existing clients send extras
    const v = coerceValue(prop, value);
    if (v !== undefined) out[key] = v;
  }
  for (const key of (schema.required ?? []) as string[]) {
    if (typeof out[key] === "string" && (out[key] as string).trim() === "") delete out[key];
  }
  return out;
}

function coerceValue(prop: TSchema, value: unknown): unknown {
  const type = prop.type as string | undefined;
  if (type === "integer" || type === "number") {
    if (typeof value === "string") {
      const t = value.trim();
      if (type === "integer" ? /^-?\d{1,20}$/.test(t) : /^-?\d{1,20}(\.\d+)?$/.test(t)) return Number(t);
      if (t === "") return undefined;
    }
    return value;
  }
  if (type === "boolean") {
    if (value === 1 || value === "1" || value === "true") return true;
    if (value === 0 || value === "0" || value === "false" || value === "") return false;
    return value;
  }
  if (type === "string" || (prop.anyOf && (prop.anyOf as TSchema[]).every((s) => s.type === "string"))) {
    if (typeof value === "number" && Number.isFinite(value)) return String(value);
    if (typeof value === "boolean" && prop.anyOf) return value ? "1" : "0";
  }
  return value;
}

function sentenceFor(e: ErrorObject, param: string): string {
  const schema = (e.parentSchema ?? {}) as Record<string, unknown>;
  const kind = schema["x-error"] as string | undefined;
  switch (e.keyword) {
    case "required":
      return msg.required(param);
    case "type": {
      const t = e.params.type as string;
      if (kind === "invalid" && t === "integer") return msg.integer(param);
      return t === "integer"
        ? msg.integer(param)
        : t === "boolean"
          ? msg.boolean(param)
          : t === "number"
            ? msg.number(param)
            : msg.string(param);
    }
    case "maxLength":
      return msg.maxChars(param, e.params.limit as number);
    case "minLength":
      return msg.minChars(param, e.params.limit as number);
    case "format":
      return (FORMATS[e.params.format as string]?.sentence ?? msg.format)(param);
    case "minimum":
    case "maximum":
      if (kind === "invalid") return msg.invalid(param);
      return e.keyword === "minimum" ? msg.minValue(param, e.params.limit as number) : msg.maxValue(param, e.params.limit as number);
    case "anyOf":
    case "const":
    case "enum":
      if (kind === "oneOf") return msg.oneOf(param, (schema["x-values"] as string[]) ?? []);
      return msg.invalid(param);
    default:
      return msg.format(param);
  }
}

/** Every failing parameter of one call, each with its sentences, in the order found. */
export class Failures {
  readonly messages: ErrorMessages = {};

  add(param: string, sentence: string): void {
    const list = this.messages[param] ?? [];
    this.messages[param] = list;
    if (!list.includes(sentence)) list.push(sentence);
  }

  has(param: string): boolean {
    return param in this.messages;
  }

  get any(): boolean {
    return Object.keys(this.messages).length > 0;
  }

  toError(): AppError {
    return new AppError(400, this.messages);
  }
}

export interface ParsedParams<S extends TObject> {
  /** The parameters that passed; failed ones are left out. */
  values: Partial<Static<S>>;
  /** Every parameter of the schema the call gave, valid or not. */
  given: readonly string[];
}

/** Parses a call's parameters: the valid values, and every failure of the others into `failures`. */
export type ParamsParser<S extends TObject> = (input: Record<string, unknown>, failures: Failures) => ParsedParams<S>;

/** Compile a parameter schema once; the parser reports every failure and answers only the valid values. */
/** Parameter schemas declared and not compiled yet (see compileParams). */
const uncompiled = new Set<() => unknown>();

/** Compiles every parameter schema declared so far and not yet compiled; returns how many. */
export function compileDeclaredParams(): number {
  const n = uncompiled.size;
  for (const compile of uncompiled) compile();
  uncompiled.clear();
  return n;
}

export function compileParams<S extends TObject>(schema: S): ParamsParser<S> {
  // Compiled on the route's first call rather than when the route is declared: compiling the
  // schemas of every route took most of a second of the service's start, for routes a given
  // instance may never serve. test/http/route-schemas.test.ts compiles every one of them.
  let validate: ValidateFunction | undefined;
  const compile = () => {
    validate ??= ajv.compile(schema);
    return validate;
  };
  uncompiled.add(compile);
  // The parser gets an empty `failures`: whatever it holds afterwards failed here.
  return (input, failures) => {
    uncompiled.delete(compile);
    const validate = compile();
    const data = coerce(schema, input);
    const given = Object.keys(data);
    for (const key of given) {
      // PostgreSQL refuses NUL in text; no parameter has a use for control characters of that kind.
      const value = data[key];
      if (typeof value === "string" && value.includes("\u0000")) failures.add(key, msg.format(key));
    }
    if (!validate(data)) {
      for (const e of validate.errors ?? []) {
        // anyOf reports each branch too; keep only the summary for that parameter.
        if (e.schemaPath.includes("/anyOf/")) continue;
        const param = e.keyword === "required" ? (e.params.missingProperty as string) : e.instancePath.split("/")[1] || "request";
        failures.add(param, sentenceFor(e, param));
      }
    }
    for (const key in failures.messages) delete data[key];
    return { values: data as Partial<Static<S>>, given };
  };
}

/**
 * "1, 2,3" as unique positive integer ids in the order given, or the sentence that refuses it:
 * empty items, non-integers, zero, negatives and values past 2^31-1 (the id columns) are refused.
 */
export function parseIdList(value: string, param: string, max: number): { ids: number[] } | { sentence: string } {
  const ids = plainIdList(value);
  if (ids === null) return { sentence: msg.format(param) };
  if (ids !== undefined) return ids.length > max ? { sentence: msg.tooManyIds(param, max) } : { ids };
  return parseIdListByParts(value, param, max);
}

/**
 * parseIdList's common case in one pass over the characters, without a string per item (every
 * get-location and report call parses its list): digits, commas, spaces and tabs only. The ids,
 * null when an item is refused, undefined when the text holds any other character (other white
 * space, which trim() also removes): then the general rules below decide.
 */
function plainIdList(value: string): number[] | null | undefined {
  const ids: number[] = [];
  let n = 0;
  let digits = 0;
  let spaceAfter = false;
  for (let i = 0; i <= value.length; i++) {
    const c = i < value.length ? value.charCodeAt(i) : 44; // the end closes the last item like a comma
    if (c >= 48 && c <= 57) {
      // A space between digits ("1 2") is inside the item: refused, as the pattern refuses it.
      if (spaceAfter || ++digits > 10) return null;
      n = n * 10 + (c - 48);
    } else if (c === 44) {
      if (digits === 0 || n < 1 || n > MAX_ID) return null;
      if (!ids.includes(n)) ids.push(n);
      n = 0;
      digits = 0;
      spaceAfter = false;
    } else if (c === 32 || c === 9) {
      if (digits > 0) spaceAfter = true;
    } else {
      return undefined;
    }
  }
  return ids;
}

function parseIdListByParts(value: string, param: string, max: number): { ids: number[] } | { sentence: string } {
  const ids: number[] = [];
  for (const part of value.split(",")) {
    const p = part.trim();
    if (!/^\d{1,10}$/.test(p) || Number(p) < 1 || Number(p) > MAX_ID) return { sentence: msg.format(param) };
    const n = Number(p);
    if (!ids.includes(n)) ids.push(n);
  }
  return ids.length > max ? { sentence: msg.tooManyIds(param, max) } : { ids };
}

/** to_date >= from_date and within `maxDays` of it, or the sentence (under to_date) that refuses the range. */
export function dateRangeProblem(from: string, to: string, maxDays: number): string | undefined {
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS;
  if (days < 0) return msg.dateAfter("to_date", "from_date");
  if (days > maxDays) return msg.dateWithin("to_date", maxDays, "from_date");
  return undefined;
}
