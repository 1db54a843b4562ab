/**
 * The two ways a client names a campaign's login methods: the specification's login_* flags, and
 * login_options (a JSON object, or its text in a form) that overrides them all.
 */
import { type ErrorBag, msg } from "../../errors.js";
import { LOGIN_METHODS, type LoginMethod, noLogins, SPEC_LOGIN_PARAMS } from "./campaign-payload.js";
import { LOGIN_OPTIONS_MAX_CHARS } from "./campaigns.schemas.js";

const PARAM = "login_options";
const ACCEPTED_VALUES = ["0", "1", "true", "false"] as const;

/** 0/1, true/false, and the same as strings (a JSON text written by hand often quotes them). */
function toBoolean(value: unknown): boolean | undefined {
  if (value === true || value === 1 || value === "1" || value === "true") return true;
  if (value === false || value === 0 || value === "0" || value === "false") return false;
  return undefined;
}

/**
 * The complete set of login methods given by login_options, or undefined when it was not given
 * (a blank form field counts as not given). Methods not named are off. Problems go to the bag.
 */
export function parseLoginOptions(raw: unknown, bag: ErrorBag): Record<LoginMethod, boolean> | undefined {
  if (raw === undefined || bag.has(PARAM)) return undefined;
  let value: unknown = raw;
  if (typeof raw === "string") {
    if (raw.trim() === "") return undefined;
    if (raw.length > LOGIN_OPTIONS_MAX_CHARS) {
      bag.add(PARAM, msg.maxChars(PARAM, LOGIN_OPTIONS_MAX_CHARS));
      return undefined;
    }
    try {
      value = JSON.parse(raw);
    } catch {
      bag.add(PARAM, msg.json(PARAM));
      return undefined;
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    bag.add(PARAM, msg.jsonObject(PARAM));
    return undefined;
  }
  const methods = noLogins();
  let failed = false;
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (!(LOGIN_METHODS as readonly string[]).includes(key)) {
      bag.add(PARAM, msg.unknownKey(PARAM, key, LOGIN_METHODS));
      failed = true;
      continue;
    }
    const on = toBoolean(v);
    if (on === undefined) {
      bag.add(PARAM, msg.keyOneOf(PARAM, key, ACCEPTED_VALUES));
      failed = true;
      continue;
    }
    methods[key as LoginMethod] = on;
  }
  return failed ? undefined : methods;
}

export type LoginFlagParams = Partial<Record<`login_${(typeof SPEC_LOGIN_PARAMS)[number]}`, "0" | "1">>;

/**
 * The login_* flags that were given, applied over the current methods (the others keep their value).
 * A flag that failed validation is skipped: the call fails under its own name.
 */
export function applyLoginFlags(current: Record<LoginMethod, boolean>, p: LoginFlagParams, bag: ErrorBag): Record<LoginMethod, boolean> {
  const out = { ...current };
  for (const method of SPEC_LOGIN_PARAMS) {
    const param = `login_${method}` as const;
    if (p[param] !== undefined && !bag.has(param)) out[method] = p[param] === "1";
  }
  return out;
}
