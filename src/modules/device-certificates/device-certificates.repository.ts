import type { Insertable, Selectable } from "kysely";
import type { DB } from "../../db/database.js";
import type { CertificateAuthoritiesTable, DeviceCertificatesTable } from "../../db/schema.js";

export type DeviceCertificateRow = Selectable<DeviceCertificatesTable>;
export type CertificateAuthorityRow = Selectable<CertificateAuthoritiesTable>;

/** What a RadSec connection's certificate stands for. */
export interface CertificateHolder {
  serial: string;
  device_id: number;
  account_id: number;
  revoked_at: string | null;
  not_after: string;
}

export function createDeviceCertificateRepository() {
  return {
    async insert(db: DB, values: Insertable<DeviceCertificatesTable>): Promise<number> {
      const row = await db.insertInto("device_certificates").values(values).returning("id").executeTakeFirstOrThrow();
      return row.id;
    },

    async listByDevice(db: DB, deviceId: number): Promise<DeviceCertificateRow[]> {
      return db.selectFrom("device_certificates").selectAll().where("device_id", "=", deviceId).orderBy("id").execute();
    },

    /** Revokes the device's certificates not yet revoked; answers their serials. */
    async revokeByDevice(db: DB, deviceId: number, now: string): Promise<string[]> {
      const rows = await db
        .updateTable("device_certificates")
        .set({ revoked_at: now })
        .where("device_id", "=", deviceId)
        .where("revoked_at", "is", null)
        .returning("serial")
        .execute();
      return rows.map((r) => r.serial);
    },

    /** The certificate's holder while its device still exists (a deleted device's certificates hold nothing). */
    async findHolder(db: DB, serial: string): Promise<CertificateHolder | undefined> {
      return db
        .selectFrom("device_certificates as c")
        .innerJoin("devices as d", "d.id", "c.device_id")
        .select(["c.serial", "c.device_id", "d.account_id", "c.revoked_at", "c.not_after"])
        .where("c.serial", "=", serial)
        .executeTakeFirst();
    },

    async findAuthority(db: DB, name: string): Promise<CertificateAuthorityRow | undefined> {
      return db.selectFrom("certificate_authorities").selectAll().where("name", "=", name).executeTakeFirst();
    },

    /** Stores the authority unless one of that name exists (another instance was first); the stored one wins. */
    async insertAuthorityOnce(db: DB, values: Insertable<CertificateAuthoritiesTable>): Promise<CertificateAuthorityRow> {
      await db
        .insertInto("certificate_authorities")
        .values(values)
        .onConflict((oc) => oc.column("name").doNothing())
        .execute();
      return db.selectFrom("certificate_authorities").selectAll().where("name", "=", values.name).executeTakeFirstOrThrow();
    },
  };
}

export type DeviceCertificateRepository = ReturnType<typeof createDeviceCertificateRepository>;
