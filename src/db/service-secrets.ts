/**
 * Secrets the service generates for itself and keeps in its database (table service_secrets), so
 * that every instance on the database and every restart use the same one. The first instance to
 * ask creates it; the insert does nothing when another instance got there first, and everyone then
 * reads the one stored.
 */
import type { DB } from "./database.js";
import { nowDatetime } from "./time.js";

export async function storedSecret(db: DB, name: string, make: () => string): Promise<string> {
  await db
    .insertInto("service_secrets")
    .values({ name, value: make(), created_at: nowDatetime() })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const row = await db.selectFrom("service_secrets").select("value").where("name", "=", name).executeTakeFirstOrThrow();
  return row.value;
}
