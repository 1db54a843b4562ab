/**
 * RadSec (RFC 6614): the client certificates issued to devices. The certificate itself is public
 * and kept (the console shows it again); its private key is shown once and never stored. A device
 * may hold several (rotation); revoking one refuses its next connection. The service's own CA is
 * kept in certificate_authorities: the certificate as is, the key sealed like every other secret
 * the service keeps (src/db/secret-box.ts); service_secrets' values are too short for them.
 */
import type { Kysely } from "kysely";
import { idColumn, idColumnType } from "../dialect.js";

const DT = "varchar(19)" as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("certificate_authorities")
    .addColumn("name", "varchar(64)", (c) => c.primaryKey())
    .addColumn("certificate", "text", (c) => c.notNull())
    .addColumn("sealed_key", "text", (c) => c.notNull())
    .addColumn("created_at", DT, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("device_certificates")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("device_id", "integer", (c) => c.notNull())
    .addColumn("account_id", "integer", (c) => c.notNull())
    // upper-case hex, as TLS peers report it; unique across the service (random 16 octets)
    .addColumn("serial", "varchar(64)", (c) => c.notNull().unique())
    .addColumn("fingerprint_sha256", "varchar(64)", (c) => c.notNull())
    .addColumn("subject", "varchar(255)", (c) => c.notNull())
    .addColumn("certificate", "text", (c) => c.notNull())
    .addColumn("not_before", DT, (c) => c.notNull())
    .addColumn("not_after", DT, (c) => c.notNull())
    .addColumn("issued_at", DT, (c) => c.notNull())
    .addColumn("revoked_at", DT)
    .execute();
  await db.schema.createIndex("device_certificates_device").on("device_certificates").columns(["device_id", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("device_certificates").execute();
  await db.schema.dropTable("certificate_authorities").execute();
}
