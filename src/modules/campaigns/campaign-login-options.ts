/**
 * The two ways a client names a campaign's login methods: the specification's login_* flags, and
 * login_options (a JSON object, or its text in a form) that overrides them all. Reading them is
 * part of validating a create-or-update-campaign call; the service gets the methods.
 */
import { msg } from "../../errors.js";
import { LOGIN_METHODS, type LoginMethod, SPEC_LOGIN_PARAMS, type SpecLoginMethod, noLogins } from "./campaign-payload.js";
import { LOGIN_OPTIONS_MAX_CHARS } from "./campaigns.schemas.js";

const PARAM = "login_options";
const ACCEPTED_VALUES = ["0", "1", "true", "false"] as const;

/** 0/1, true/false, and the same as strings (a JSON text written by hand often quotes them). */
function toBoolean(value: unknown): boolean | undefined {
  if (value === true || value === 1 || value === "1" || value === "true") return true;
  if (value === false || value === 0 || value === "0" || value === "false") return false;
  return undefined;
}

export type LoginOptionsResult = { methods: Record<LoginMethod, boolean> } | { sentences: string[] };

/**
 * The complete set of login methods login_options names (methods not named are off), or the
 * sentences that refuse it; undefined when it was not given (a blank form field counts as not given).
 */
export function parseLoginOptions(raw: unknown): LoginOptionsResult | undefined {
  if (raw === undefined) return undefined;
  let value: unknown = raw;
  if (typeof raw === "string") {
    if (raw.trim() === "") return undefined;
    if (raw.length > LOGIN_OPTIONS_MAX_CHARS) return { sentences: [msg.maxChars(PARAM, LOGIN_OPTIONS_MAX_CHARS)] };
    try {
      value = JSON.parse(raw);
    } catch {
      return { sentences: [msg.json(PARAM)] };
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { sentences: [msg.jsonObject(PARAM)] };
  const methods = noLogins();
  const sentences: string[] = [];
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (!(LOGIN_METHODS as readonly string[]).includes(key)) {
      sentences.push(msg.unknownKey(PARAM, key, LOGIN_METHODS));
      continue;
    }
    const on = toBoolean(v);
    if (on === undefined) {
      sentences.push(msg.keyOneOf(PARAM, key, ACCEPTED_VALUES));
      continue;
    }
    methods[key as LoginMethod] = on;
  }
  return sentences.length > 0 ? { sentences } : { methods };
}

export type LoginFlagParams = Partial<Record<`login_${SpecLoginMethod}`, "0" | "1">>;

/** The login_* flags that were given, as methods on (true) or off (false). */
export function loginFlagsOf(p: LoginFlagParams): Partial<Record<SpecLoginMethod, boolean>> {
  const out: Partial<Record<SpecLoginMethod, boolean>> = {};
  for (const method of SPEC_LOGIN_PARAMS) {
    const flag = p[`login_${method}`];
    if (flag !== undefined) out[method] = flag === "1";
  }
  return out;
}
