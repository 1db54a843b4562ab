/**
 * SQL of portal credentials (the one-time RADIUS user names a portal login hands its gateway):
 * stored with the login, consumed at Access-Request, deleted at an erasure, purged once expired.
 * Part of the RADIUS server's repository (radius.repository.ts spreads it in), the table's one writer.
 */
import { type Insertable, type Selectable, sql } from "kysely";
import type { DB } from "../db/database.js";
import type { PortalCredentialsTable } from "../db/schema.js";
import { PreparedQuery } from "../db/prepared-query.js";

/** A stored credential. */
type StoredCredential = Selectable<PortalCredentialsTable>;

/** Every column a credential is stored with (voucher_id null but for a voucher's login). */
const CREDENTIAL_COLUMNS = ["username", "password", "guest_id", "location_id", "device_id", "client_mac", "created_at", "expires_at", "used_at", "voucher_id"] as const;

export function portalCredentialQueries() {
  const q = {
    // Every SQLite portal login stores one, in its batch's transaction: built once, not by Kysely
    // at each login (about 55 of a login's 950 µs of CPU went to building and preparing it).
    insertCredential: new PreparedQuery(CREDENTIAL_COLUMNS, (db, p) => db.insertInto("portal_credentials").values(p)),
    findCredential: new PreparedQuery(["username"], (db, p) => db.selectFrom("portal_credentials").selectAll().where("username", "=", p.username)),
    consumeCredential: new PreparedQuery(["id", "now"], (db, p) =>
      db.updateTable("portal_credentials").set({ used_at: p.now }).where("id", "=", p.id).where("used_at", "is", null).where("expires_at", ">", p.now),
    ),
  };

  return {
    async insertCredential(db: DB, values: Insertable<PortalCredentialsTable>): Promise<void> {
      await q.insertCredential.run(db, { ...values, device_id: values.device_id ?? null, used_at: values.used_at ?? null, voucher_id: values.voucher_id ?? null });
    },

    /**
     * PostgreSQL: insertCredential as a CTE of a login's statement (recordLogin's companion), for
     * the guest of its CTE `g`: the columns `cols` read from `p` by name.
     */
    credentialCte(p: Record<string, never>, cols: string[]) {
      const integer = (k: string) => k === "device_id" || k === "location_id" || k === "voucher_id";
      return sql`pc as (
      insert into portal_credentials (${sql.join(cols.map((k) => sql.ref(k)))}, guest_id)
      select ${sql.join(cols.map((k) => sql`${p[k]}::${sql.raw(integer(k) ? "integer" : "varchar")}`))}, g.id from g
    )`;
    },

    /** Erasure of a guest (docs/guest-data.md): its credentials carry its MAC. */
    async deleteGuestCredentials(db: DB, guestId: number): Promise<void> {
      await db.deleteFrom("portal_credentials").where("guest_id", "=", guestId).execute();
    },

    async findCredential(db: DB, username: string): Promise<StoredCredential | undefined> {
      return q.findCredential.first<StoredCredential>(db, { username });
    },

    /** Marks the credential used if it is still unused and fresh; false when another request got there first. */
    async consumeCredential(db: DB, id: number, now: string): Promise<boolean> {
      return (await q.consumeCredential.run(db, { id, now })) === 1;
    },

    async purgeCredentials(db: DB, expiredBefore: string): Promise<number> {
      const res = await db.deleteFrom("portal_credentials").where("expires_at", "<", expiredBefore).executeTakeFirst();
      return Number(res.numDeletedRows);
    },
  };
}
