/**
 * How the API reports the services' domain errors: under which parameter, in which sentence. A
 * route names another parameter where the client used an alias (create-sub-user's `email`).
 */
import type { DomainError, DomainErrorCode } from "../domain-errors.js";
import { msg } from "../errors.js";

const DEFAULTS: Record<DomainErrorCode, { param: string; sentence: (param: string) => string }> = {
  "mac-taken": { param: "mac_address", sentence: msg.taken },
  "email-taken": { param: "email_address", sentence: msg.taken },
  "no-login-method": { param: "login_options", sentence: msg.oneLoginMethod },
  "location-gone": { param: "location_id", sentence: msg.invalid },
};

export function domainErrorParam(err: DomainError, param?: string): { param: string; sentence: string } {
  const d = DEFAULTS[err.code];
  const p = param ?? d.param;
  return { param: p, sentence: d.sentence(p) };
}
