/** Sub-users made through the API itself, for tests of what sub-user identifiers may do. */
import assert from "node:assert/strict";
import { type TestApp, locationParams } from "./app.js";

let counter = 0;

/** A valid create-sub-user parameter set for a quick-report location; an override of undefined drops that key. */
export function subUserParams(quickreportLocationId: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const all: Record<string, unknown> = {
    first_name: "Ada",
    last_name: "Lovelace",
    email_address: `staff${++counter}-${Date.now()}@example.com`,
    password: "s3cret-pass",
    quickreport: "1",
    readonly: "0",
    quickreport_location_id: quickreportLocationId,
    ...overrides,
  };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined));
}

/** A live location of the account behind `identifier` (the first account by default). */
export async function makeLocation(t: TestApp, identifier?: string): Promise<number> {
  const res = await t.call("POST", "create-or-update-location", locationParams(), { identifier });
  assert.equal(res.statusCode, 200, JSON.stringify(res.body));
  return res.body.location_id;
}

/** A sub-user of the first account; answers its id and its own identifier. */
export async function makeSubUser(t: TestApp, opts: { readonly: boolean }): Promise<{ id: number; identifier: string }> {
  const locationId = await makeLocation(t);
  const res = await t.call("POST", "create-sub-user", subUserParams(locationId, { readonly: opts.readonly ? "1" : "0" }));
  assert.equal(res.statusCode, 200, JSON.stringify(res.body));
  return { id: res.body.sub_user_id, identifier: res.body.identifier };
}
