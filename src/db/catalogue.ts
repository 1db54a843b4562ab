/**
 * The catalogue: the tables of what an operator sets up (accounts, identifiers, sub-users,
 * locations and their options, devices, campaigns), which hot reads keep in memory. They change
 * rarely; logins, visits and accounting never write them. Read caches that hold only their rows
 * are dropped on a write to one of them, not on every write (see changeGeneration).
 */
export const CATALOGUE_TABLES = ["accounts", "api_identifiers", "sub_users", "locations", "location_options", "devices", "campaigns", "webhooks", "automations"] as const;

/** A statement that writes a catalogue table, as Kysely and our SQL spell it. */
const CATALOGUE_WRITE = new RegExp(
  `^\\s*(?:insert\\s+into|update|delete\\s+from|truncate)\\s+(?:table\\s+)?"?(?:${CATALOGUE_TABLES.join("|")})"?[\\s(]`,
  "i",
);

/**
 * Marking an access point heard from (`last_heard_at` alone, at most once a minute per AP and
 * instance) is not a change of the catalogue: what caches hold of a device does not depend on it.
 * The PostgreSQL trigger on devices leaves that column out the same way (the baseline migration's DEVICE_COLUMNS).
 */
const HEARD_ONLY = /^\s*update\s+"?devices"?\s+set\s+"?last_heard_at"?\s*=\s*(?:\?|\$\d+)\s+where\s/i;

export function writesCatalogue(sqlText: unknown): boolean {
  return typeof sqlText === "string" && CATALOGUE_WRITE.test(sqlText) && !HEARD_ONLY.test(sqlText);
}
