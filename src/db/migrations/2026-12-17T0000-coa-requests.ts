/**
 * Change of Authorization (RFC 5176): where to reach the gateway that reported a session (the
 * address its accounting came from), and every CoA-Request and Disconnect-Request sent, with its
 * outcome (ACK, NAK with Error-Cause, no answer), for the operator and for support questions.
 */
import type { Kysely } from "kysely";
import { idColumn, idColumnType } from "../dialect.js";

const DT = "varchar(19)" as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("radius_sessions").addColumn("nas_ip", "varchar(45)").execute();
  await db.schema
    .createTable("coa_requests")
    .addColumn("id", idColumnType(db), idColumn(db))
    .addColumn("session_id", "integer", (c) => c.notNull())
    .addColumn("device_id", "integer", (c) => c.notNull())
    .addColumn("location_id", "integer")
    // "disconnect" or "coa"
    .addColumn("kind", "varchar(16)", (c) => c.notNull())
    // operator, options-changed, daily-cap, limit (a caller's own reason, e.g. a voucher's)
    .addColumn("reason", "varchar(32)", (c) => c.notNull())
    .addColumn("nas_address", "varchar(45)", (c) => c.notNull().defaultTo(""))
    .addColumn("nas_port", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("requested_at", DT, (c) => c.notNull())
    .addColumn("finished_at", DT)
    // pending, ack, nak, timeout, unsupported (the family has no CoA), no-address
    .addColumn("result", "varchar(16)", (c) => c.notNull())
    .addColumn("error_cause", "integer")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("coa_requests_session").on("coa_requests").columns(["session_id", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("coa_requests").execute();
  await db.schema.alterTable("radius_sessions").dropColumn("nas_ip").execute();
}
