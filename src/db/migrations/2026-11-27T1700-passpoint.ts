/**
 * Passpoint (Hotspot 2.0): an account's configurations (the secure SSID's domain, NAI realm and
 * roaming consortium OIs) and the locations each covers, and the per-guest credentials issued
 * after a portal login at a covered location: a username and a password hash for EAP-TTLS/PAP, or a
 * client certificate for EAP-TLS (its public part; the key goes to the guest's device only).
 * docs/passpoint.md.
 */
import type { Kysely } from "kysely";
import { idColumn, idColumnType } from "../dialect.js";

const DT = "varchar(19)" as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("passpoint_configs")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("account_id", "integer", (c) => c.notNull())
    .addColumn("ssid", "varchar(32)", (c) => c.notNull())
    .addColumn("domain", "varchar(253)", (c) => c.notNull())
    .addColumn("realm", "varchar(253)", (c) => c.notNull())
    // Upper-case hex OIs, comma-separated: "5A03BA0000,004096"
    .addColumn("roaming_consortium", "varchar(255)", (c) => c.notNull().defaultTo(""))
    .addColumn("friendly_name", "varchar(64)", (c) => c.notNull())
    // ttls or tls: what the profiles offer first
    .addColumn("eap_method", "varchar(8)", (c) => c.notNull().defaultTo("ttls"))
    .addColumn("credential_days", "integer", (c) => c.notNull().defaultTo(365))
    .addColumn("date_created", DT, (c) => c.notNull())
    .addColumn("last_modified", DT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("passpoint_configs_account").on("passpoint_configs").columns(["account_id", "id"]).execute();
  // A location is covered by one configuration at most (its SSID, realm and domain are one answer).
  await db.schema
    .createTable("passpoint_config_locations")
    .addColumn("location_id", "integer", (c) => c.primaryKey())
    .addColumn("config_id", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("passpoint_config_locations_config").on("passpoint_config_locations").columns(["config_id"]).execute();
  await db.schema
    .createTable("passpoint_credentials")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("account_id", "integer", (c) => c.notNull())
    .addColumn("guest_id", "integer", (c) => c.notNull())
    .addColumn("config_id", "integer", (c) => c.notNull())
    // Where the guest logged in when it was issued.
    .addColumn("location_id", "integer", (c) => c.notNull())
    // ttls (username and password) or tls (client certificate)
    .addColumn("kind", "varchar(8)", (c) => c.notNull())
    // username@realm; for tls, the certificate's common name
    .addColumn("username", "varchar(320)", (c) => c.notNull().unique())
    // ttls: "hs256$<salt hex>$<HMAC-SHA256 hex>"; tls: ""
    .addColumn("password_hash", "varchar(160)", (c) => c.notNull().defaultTo(""))
    // tls: upper-case hex serial and SHA-256 fingerprint, the certificate (PEM, public)
    .addColumn("serial", "varchar(64)")
    .addColumn("fingerprint_sha256", "varchar(64)")
    .addColumn("certificate", "text")
    // Chargeable-User-Identity (RFC 4372): one opaque value per guest, the same on every credential.
    .addColumn("cui", "varchar(64)", (c) => c.notNull())
    .addColumn("issued_at", DT, (c) => c.notNull())
    .addColumn("expires_at", DT, (c) => c.notNull())
    .addColumn("revoked_at", DT)
    // api, console (a write of an operator) or guest (the guest asked for a new one)
    .addColumn("revoked_by", "varchar(16)", (c) => c.notNull().defaultTo(""))
    .addColumn("last_used_at", DT)
    .execute();
  await db.schema.createIndex("passpoint_credentials_guest").on("passpoint_credentials").columns(["guest_id", "id"]).execute();
  await db.schema.createIndex("passpoint_credentials_serial").on("passpoint_credentials").columns(["serial"]).execute();
  await db.schema.createIndex("passpoint_credentials_account").on("passpoint_credentials").columns(["account_id", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("passpoint_credentials").execute();
  await db.schema.dropTable("passpoint_config_locations").execute();
  await db.schema.dropTable("passpoint_configs").execute();
}
