/**
 * The error catalogue. Every failure leaves the service as
 * `{"status":"error","message":{"<param>":["<sentence>", ...]}}`, rendered by one handler (app.ts).
 */

export type ErrorMessages = Record<string, string[]>;

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly messages: ErrorMessages,
    readonly headers: Record<string, string> = {},
  ) {
    super(Object.values(messages).flat().join(" "));
  }
}

/** Sentences, one factory per rule, in the style existing clients of the API know. */
export const msg = {
  required: (p: string) => `The ${p} field is required.`,
  invalid: (p: string) => `The selected ${p} is invalid.`,
  format: (p: string) => `The ${p} format is invalid.`,
  integer: (p: string) => `The ${p} must be an integer.`,
  string: (p: string) => `The ${p} must be a string.`,
  boolean: (p: string) => `The ${p} field must be true or false.`,
  number: (p: string) => `The ${p} must be a number.`,
  maxChars: (p: string, n: number) => `The ${p} may not be greater than ${n} characters.`,
  minChars: (p: string, n: number) => `The ${p} must be at least ${n} characters.`,
  maxValue: (p: string, n: number) => `The ${p} may not be greater than ${n}.`,
  minValue: (p: string, n: number) => `The ${p} must be at least ${n}.`,
  oneOf: (p: string, values: readonly string[]) => `The ${p} must be one of: ${values.join(", ")}.`,
  tooManyIds: (p: string, n: number) => `The ${p} may not contain more than ${n} ids.`,
  date: (p: string) => `The ${p} is not a valid date.`,
  dateAfter: (p: string, other: string) => `The ${p} must be a date after or equal to ${other}.`,
  dateWithin: (p: string, n: number, other: string) => `The ${p} must be a date within ${n} days after ${other}.`,
  taken: (p: string) => `The ${p} has already been taken.`,
  scopedCreate: (what: string) => `This identifier may not create ${what}; it works within the locations of its scope.`,
  json: (p: string) => `The ${p} must be a valid JSON string.`,
  email: (p: string) => `The ${p} must be a valid email address.`,
  url: (p: string) => `The ${p} must be a valid URL starting with http:// or https://.`,
  jsonObject: (p: string) => `The ${p} must be a JSON object.`,
  unknownKey: (p: string, key: string, allowed: readonly string[]) =>
    `The ${p} contains an unknown key "${key.slice(0, 50)}"; allowed keys: ${allowed.join(", ")}.`,
  keyOneOf: (p: string, key: string, values: readonly string[]) =>
    `The ${p} value of ${key} must be one of: ${values.join(", ")}.`,
  oneLoginMethod: (p: string) => `The ${p} must leave at least one login method enabled.`,
};

export function validationError(param: string, sentence: string): AppError {
  return new AppError(400, { [param]: [sentence] });
}

export const httpErrors = {
  identifierRequired: () => validationError("identifier", msg.required("identifier")),
  identifierInvalid: () => validationError("identifier", "The identifier is invalid."),
  identifierReadOnly: () => validationError("identifier", "This identifier is read-only."),
  parentOnly: () => validationError("identifier", "This operation requires the account's own identifier, not a sub-user's."),
  subUserManagement: () => validationError("identifier", "This identifier may not manage sub-users."),
  invalid: (param: string) => validationError(param, msg.invalid(param)),
  notFound: (method: string, url: string) =>
    new AppError(404, { route: [`The route ${method} ${url.split("?")[0]} does not exist.`] }),
  methodNotAllowed: (method: string, allowed: string[]) =>
    new AppError(405, { method: [`The ${method} method is not supported for this route. Supported methods: ${allowed.join(", ")}.`] }, { allow: allowed.join(", ") }),
  rateLimited: (retryAfter: number) =>
    new AppError(429, { rate_limit: ["Too many requests. Try again later."] }, { "retry-after": String(retryAfter) }),
  internal: () => new AppError(500, { server: ["An unexpected error occurred. It has been logged."] }),
};
