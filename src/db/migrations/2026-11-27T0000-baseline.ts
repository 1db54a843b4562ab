/**
 * The whole schema as of the first release, for SQLite and PostgreSQL, written once with the schema
 * builder (the development history before it was squashed into this file). Datetimes are UTC text
 * `YYYY-MM-DD HH:MM:SS` (sortable on both), days are `YYYY-MM-DD` text in the location's time zone,
 * flags are 0/1 integers, times of the outboxes are epoch milliseconds.
 *
 * Besides tables and indexes:
 * - Hot counters (daily_logins, daily_visits, daily_new_guests, hourly_logins) have a `shard` in their
 *   primary key: each PostgreSQL connection adds to its own row (counterShard), readers sum them;
 *   SQLite writes shard 0 only.
 * - rate_limit_hits is UNLOGGED on PostgreSQL: a counter of a one-minute window need not survive a
 *   crash, so its commits do not wait for the WAL flush (SQLite does not use that table).
 * - PostgreSQL: every write to a catalogue table (what instances cache) runs a statement trigger that
 *   NOTIFYs `guestwifi_catalogue` with the schema's name at commit (src/db/change-watch.ts). The devices
 *   trigger leaves `last_heard_at` out (about once a minute per AP and instance; nothing cached depends
 *   on it): a column added to devices later must be added to DEVICE_COLUMNS' trigger in a new migration.
 * - Guest search (the console): on SQLite an FTS5 trigram table over each guest's lower-cased
 *   "name e-mail phone", kept by triggers on guests; on PostgreSQL a GIN trigram index (pg_trgm) on the
 *   same expression, left out where the extension cannot be created (the search then scans).
 * - The built-in campaign templates, inserted as frozen data (a later change is a migration updating
 *   their rows, never a read of application code).
 */
import { type Kysely, sql } from "kysely";
import { BIG, dialectOf, idColumn, idColumnType } from "../dialect.js";

const DT = "varchar(19)" as const;
const DAY = "varchar(10)" as const;

/** Tables whose every write is announced to all instances on PostgreSQL (they cache them). */
const CATALOGUE_TABLES = ["accounts", "api_identifiers", "sub_users", "locations", "location_options", "campaigns", "webhooks", "automations"];
/** Every column of devices but last_heard_at: the devices trigger fires on updates of these. */
const DEVICE_COLUMNS = [
  "id", "account_id", "location_id", "model_id", "name", "mac_address", "wan_ip", "radius_secret", "upgrade",
  "last_upgraded", "wifi_channel", "firmware_version", "status", "sync_response", "create_date", "update_date",
];

const SEARCH_TEXT = sql.raw(`lower(full_name || ' ' || email || ' ' || phone_number)`);

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === "postgres";
  const ID = idColumnType(db);
  const pk = idColumn(db);

  // Accounts, their sub-users and API identifiers (stored only as SHA-256 hashes of the secret).
  await db.schema
    .createTable("accounts")
    .addColumn("id", ID, pk)
    .addColumn("email", "varchar(254)", (c) => c.notNull().unique())
    .addColumn("created_at", DT, (c) => c.notNull())
    // Salted scrypt hash of the owner's console password; null until set from the command line.
    .addColumn("password_hash", "varchar(255)")
    // Guests not seen for that many days are erased by the retention job (0: off).
    .addColumn("retention_days", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("quickreport", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("quickreport_frequency", "varchar(8)", (c) => c.notNull().defaultTo("daily"))
    .addColumn("quickreport_location_id", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("sub_users")
    .addColumn("id", ID, pk)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("first_name", "varchar(100)", (c) => c.notNull())
    .addColumn("last_name", "varchar(100)", (c) => c.notNull())
    .addColumn("email", "varchar(254)", (c) => c.notNull().unique())
    .addColumn("phone_number", "varchar(32)")
    .addColumn("password_hash", "varchar(255)", (c) => c.notNull())
    .addColumn("quickreport", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("readonly", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("quickreport_location_id", "integer", (c) => c.notNull())
    .addColumn("date_created", DT, (c) => c.notNull())
    .addColumn("last_modified", DT, (c) => c.notNull())
    .addColumn("quickreport_frequency", "varchar(8)", (c) => c.notNull().defaultTo("daily"))
    .execute();
  await db.schema.createIndex("sub_users_account").on("sub_users").column("account_id").execute();

  await db.schema
    .createTable("api_identifiers")
    .addColumn("id", ID, pk)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("sub_user_id", "integer", (c) => c.references("sub_users.id"))
    .addColumn("token_hash", "varchar(64)", (c) => c.notNull().unique())
    .addColumn("created_at", DT, (c) => c.notNull())
    .addColumn("revoked_at", DT)
    .execute();

  // Campaigns (portal pages); the built-in templates have no account.
  await db.schema
    .createTable("campaigns")
    .addColumn("id", ID, pk)
    .addColumn("account_id", "integer", (c) => c.references("accounts.id"))
    .addColumn("name", "varchar(100)", (c) => c.notNull())
    .addColumn("ssid", "varchar(32)", (c) => c.notNull().defaultTo(""))
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("filename", "varchar(100)", (c) => c.notNull().unique())
    .addColumn("date_created", DT, (c) => c.notNull())
    .addColumn("last_modified", DT, (c) => c.notNull())
    .addColumn("deleted", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("campaigns_account").on("campaigns").columns(["account_id", "deleted"]).execute();

  await db.schema
    .createTable("locations")
    .addColumn("id", ID, pk)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("name", "varchar(255)", (c) => c.notNull())
    .addColumn("address1", "varchar(255)", (c) => c.notNull())
    .addColumn("town", "varchar(255)", (c) => c.notNull())
    .addColumn("state", "varchar(255)", (c) => c.notNull())
    .addColumn("zipcode", "varchar(32)", (c) => c.notNull())
    .addColumn("country", "varchar(2)", (c) => c.notNull())
    .addColumn("phone_number", "varchar(32)", (c) => c.notNull())
    .addColumn("timezone", "varchar(64)", (c) => c.notNull())
    .addColumn("latitude", "double precision")
    .addColumn("longitude", "double precision")
    .addColumn("website", "varchar(2048)")
    .addColumn("portal_slug", "varchar(64)", (c) => c.notNull().unique())
    .addColumn("default_campaign_id", "integer", (c) => c.references("campaigns.id"))
    .addColumn("date_created", DT, (c) => c.notNull())
    .addColumn("last_modified", DT, (c) => c.notNull())
    .addColumn("deleted", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("locations_account").on("locations").columns(["account_id", "deleted"]).execute();

  await db.schema
    .createTable("location_options")
    .addColumn("location_id", "integer", (c) => c.primaryKey().references("locations.id"))
    .addColumn("session_time_limit", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_bandwidth_down", BIG, (c) => c.notNull().defaultTo(0))
    .addColumn("max_bandwidth_up", BIG, (c) => c.notNull().defaultTo(0))
    .addColumn("daily_bandwidth_cap", BIG, (c) => c.notNull().defaultTo(0))
    .addColumn("content_filter", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("dns_server_1", "varchar(45)", (c) => c.notNull().defaultTo(""))
    .addColumn("dns_server_2", "varchar(45)", (c) => c.notNull().defaultTo(""))
    .addColumn("whitelist", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("blacklist", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("updated_at", DT, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("devices")
    .addColumn("id", ID, pk)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("location_id", "integer", (c) => c.references("locations.id"))
    .addColumn("model_id", "varchar(64)", (c) => c.notNull())
    .addColumn("name", "varchar(255)", (c) => c.notNull())
    .addColumn("mac_address", "varchar(17)", (c) => c.notNull().unique())
    .addColumn("wan_ip", "varchar(45)", (c) => c.notNull().defaultTo(""))
    .addColumn("radius_secret", "varchar(128)", (c) => c.notNull())
    .addColumn("upgrade", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_upgraded", DT)
    .addColumn("wifi_channel", "varchar(16)", (c) => c.notNull().defaultTo("auto"))
    .addColumn("firmware_version", "varchar(64)", (c) => c.notNull().defaultTo(""))
    .addColumn("status", "varchar(16)", (c) => c.notNull().defaultTo("active"))
    .addColumn("sync_response", "varchar(255)", (c) => c.notNull().defaultTo(""))
    .addColumn("last_heard_at", DT)
    .addColumn("create_date", DT, (c) => c.notNull())
    .addColumn("update_date", DT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("devices_account").on("devices").column("account_id").execute();
  await db.schema.createIndex("devices_location").on("devices").column("location_id").execute();

  // One guest per account and login identity (network + network user id, or e-mail for forms).
  await db.schema
    .createTable("guests")
    .addColumn("id", ID, pk)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("social_network", "varchar(16)", (c) => c.notNull())
    .addColumn("network_user_id", "varchar(255)", (c) => c.notNull())
    .addColumn("email", "varchar(254)", (c) => c.notNull().defaultTo(""))
    .addColumn("full_name", "varchar(255)", (c) => c.notNull().defaultTo(""))
    .addColumn("username", "varchar(255)", (c) => c.notNull().defaultTo(""))
    .addColumn("gender", "varchar(32)", (c) => c.notNull().defaultTo(""))
    .addColumn("phone_number", "varchar(32)", (c) => c.notNull().defaultTo(""))
    .addColumn("birthdate", "varchar(10)", (c) => c.notNull().defaultTo(""))
    .addColumn("age", "varchar(16)", (c) => c.notNull().defaultTo(""))
    .addColumn("locale", "varchar(32)", (c) => c.notNull().defaultTo(""))
    .addColumn("picture_url", "varchar(2048)", (c) => c.notNull().defaultTo(""))
    .addColumn("radius_session_total_time", BIG, (c) => c.notNull().defaultTo(0))
    .addColumn("radius_total_bandwidth_input", BIG, (c) => c.notNull().defaultTo(0))
    .addColumn("radius_total_bandwidth_output", BIG, (c) => c.notNull().defaultTo(0))
    .addColumn("radius_session_first_datetime", DT)
    .addColumn("radius_session_last_datetime", DT)
    .addColumn("created_at", DT, (c) => c.notNull())
    .addColumn("updated_at", DT, (c) => c.notNull())
    // The latest marketing choice of a page that asked for one, when, and the text version seen.
    .addColumn("marketing_opt_in", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("marketing_opt_in_at", DT)
    .addColumn("marketing_version", "varchar(64)", (c) => c.notNull().defaultTo(""))
    .addUniqueConstraint("guests_identity", ["account_id", "social_network", "network_user_id"])
    .execute();
  // The console's guest list: an account's guests newest first, paged by id.
  await db.schema.createIndex("guests_account_id").on("guests").columns(["account_id", "id"]).execute();

  // Every portal login. Raw events: analytics never scan this table (see daily_* below).
  await db.schema
    .createTable("logins")
    .addColumn("id", ID, pk)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("guest_id", "integer", (c) => c.notNull().references("guests.id"))
    .addColumn("location_id", "integer", (c) => c.notNull().references("locations.id"))
    .addColumn("campaign_id", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("device_id", "integer")
    .addColumn("login_type", "varchar(16)", (c) => c.notNull())
    .addColumn("client_mac", "varchar(17)", (c) => c.notNull().defaultTo(""))
    .addColumn("user_agent", "varchar(1024)", (c) => c.notNull().defaultTo(""))
    .addColumn("browser_name", "varchar(64)", (c) => c.notNull().defaultTo(""))
    .addColumn("os_name", "varchar(64)", (c) => c.notNull().defaultTo(""))
    .addColumn("os_version", "varchar(64)", (c) => c.notNull().defaultTo(""))
    .addColumn("device_type", "varchar(32)", (c) => c.notNull().defaultTo(""))
    .addColumn("device_brand", "varchar(64)", (c) => c.notNull().defaultTo(""))
    .addColumn("logged_at", DT, (c) => c.notNull())
    .addColumn("local_day", DAY, (c) => c.notNull())
    // Consent (docs/guest-data.md): the campaign's terms accepted, its marketing opt-in ticked, and
    // the versions of both texts seen; the voucher the login came through.
    .addColumn("terms_accepted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("marketing_opt_in", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("terms_version", "varchar(64)", (c) => c.notNull().defaultTo(""))
    .addColumn("marketing_version", "varchar(64)", (c) => c.notNull().defaultTo(""))
    .addColumn("voucher_id", "integer")
    .execute();
  await db.schema.createIndex("logins_guest").on("logins").columns(["guest_id", "id"]).execute();
  await db.schema.createIndex("logins_location_day").on("logins").columns(["location_id", "local_day"]).execute();

  // First login of each guest at each location: social-user-list's added_datetime.
  await db.schema
    .createTable("guest_locations")
    .addColumn("guest_id", "integer", (c) => c.notNull().references("guests.id"))
    .addColumn("location_id", "integer", (c) => c.notNull().references("locations.id"))
    .addColumn("campaign_id", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("first_login_at", DT, (c) => c.notNull())
    .addPrimaryKeyConstraint("guest_locations_pk", ["guest_id", "location_id"])
    .execute();
  // The guest export reads a location's guests in order of guest id.
  await db.schema.createIndex("guest_locations_location").on("guest_locations").columns(["location_id", "guest_id"]).execute();

  // Which guest a client MAC belongs to, for returning guests accepted by RADIUS without the portal.
  await db.schema
    .createTable("guest_macs")
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("client_mac", "varchar(17)", (c) => c.notNull())
    .addColumn("guest_id", "integer", (c) => c.notNull().references("guests.id"))
    .addColumn("last_login_at", DT, (c) => c.notNull())
    .addPrimaryKeyConstraint("guest_macs_pk", ["account_id", "client_mac"])
    .execute();
  await db.schema.createIndex("guest_macs_guest").on("guest_macs").column("guest_id").execute();

  // Daily aggregates, one row per location and local day (and shard): what analytics read.
  await db.schema
    .createTable("daily_logins")
    .addColumn("location_id", "integer", (c) => c.notNull())
    .addColumn("day", DAY, (c) => c.notNull())
    .addColumn("login_type", "varchar(16)", (c) => c.notNull())
    .addColumn("shard", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("count", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("daily_logins_pk", ["location_id", "day", "login_type", "shard"])
    .execute();
  // Logins per location, local day and local wall-clock hour (0-23): "busiest hours of the week".
  await db.schema
    .createTable("hourly_logins")
    .addColumn("location_id", "integer", (c) => c.notNull())
    .addColumn("day", DAY, (c) => c.notNull())
    .addColumn("hour", "integer", (c) => c.notNull())
    .addColumn("shard", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("count", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("hourly_logins_pk", ["location_id", "day", "hour", "shard"])
    .execute();
  await db.schema
    .createTable("daily_visitors")
    .addColumn("location_id", "integer", (c) => c.notNull())
    .addColumn("day", DAY, (c) => c.notNull())
    .addColumn("guest_id", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("daily_visitors_pk", ["location_id", "day", "guest_id"])
    .execute();
  // The guest export counts each guest's visit days at a location.
  await db.schema.createIndex("daily_visitors_guest").on("daily_visitors").columns(["guest_id", "location_id", "day"]).execute();
  await db.schema
    .createTable("daily_visits")
    .addColumn("location_id", "integer", (c) => c.notNull())
    .addColumn("day", DAY, (c) => c.notNull())
    .addColumn("shard", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("count", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("daily_visits_pk", ["location_id", "day", "shard"])
    .execute();
  // New guests per location and local day: the console's "new against returning" chart.
  await db.schema
    .createTable("daily_new_guests")
    .addColumn("location_id", "integer", (c) => c.notNull())
    .addColumn("day", DAY, (c) => c.notNull())
    .addColumn("shard", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("count", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("daily_new_guests_pk", ["location_id", "day", "shard"])
    .execute();
  // Octets used per guest, location and local day: what is left of the daily cap.
  await db.schema
    .createTable("daily_usage")
    .addColumn("guest_id", "integer", (c) => c.notNull())
    .addColumn("location_id", "integer", (c) => c.notNull())
    .addColumn("day", DAY, (c) => c.notNull())
    .addColumn("octets", BIG, (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("daily_usage_pk", ["guest_id", "location_id", "day"])
    .execute();

  // One-time credentials the portal hands to a gateway; RADIUS accepts each once while fresh.
  await db.schema
    .createTable("portal_credentials")
    .addColumn("id", ID, pk)
    .addColumn("username", "varchar(64)", (c) => c.notNull().unique())
    .addColumn("password", "varchar(64)", (c) => c.notNull())
    .addColumn("guest_id", "integer", (c) => c.notNull().references("guests.id"))
    .addColumn("location_id", "integer", (c) => c.notNull().references("locations.id"))
    .addColumn("device_id", "integer")
    .addColumn("client_mac", "varchar(17)", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", DT, (c) => c.notNull())
    .addColumn("expires_at", DT, (c) => c.notNull())
    .addColumn("used_at", DT)
    .addColumn("voucher_id", "integer")
    .execute();

  await db.schema
    .createTable("radius_sessions")
    .addColumn("id", ID, pk)
    .addColumn("device_id", "integer", (c) => c.notNull().references("devices.id"))
    .addColumn("guest_id", "integer", (c) => c.references("guests.id"))
    .addColumn("location_id", "integer")
    .addColumn("acct_session_id", "varchar(253)", (c) => c.notNull())
    .addColumn("username", "varchar(253)", (c) => c.notNull().defaultTo(""))
    .addColumn("client_mac", "varchar(17)", (c) => c.notNull().defaultTo(""))
    .addColumn("started_at", DT, (c) => c.notNull())
    .addColumn("updated_at", DT, (c) => c.notNull())
    .addColumn("stopped_at", DT)
    .addColumn("session_time", BIG, (c) => c.notNull().defaultTo(0))
    .addColumn("input_octets", BIG, (c) => c.notNull().defaultTo(0))
    .addColumn("output_octets", BIG, (c) => c.notNull().defaultTo(0))
    .addColumn("terminate_cause", "varchar(32)")
    // Framed-IP-Address from accounting (live sessions list).
    .addColumn("framed_ip", "varchar(45)")
    // The address the accounting came from: where CoA and Disconnect requests go (RFC 5176).
    .addColumn("nas_ip", "varchar(45)")
    .addUniqueConstraint("radius_sessions_key", ["device_id", "acct_session_id"])
    .execute();
  await db.schema.createIndex("radius_sessions_guest").on("radius_sessions").column("guest_id").execute();
  // The sessions still open, by location: live sessions read those rows only, not 90 days of closed ones.
  await db.schema
    .createIndex("radius_sessions_open")
    .on("radius_sessions")
    .columns(["location_id", "id"])
    .where(sql.ref("stopped_at"), "is", null)
    .execute();

  // Every CoA-Request and Disconnect-Request sent, with its outcome.
  await db.schema
    .createTable("coa_requests")
    .addColumn("id", ID, pk)
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

  await db.schema
    .createTable("sms_codes")
    .addColumn("id", ID, pk)
    .addColumn("location_id", "integer", (c) => c.notNull().references("locations.id"))
    .addColumn("phone_number", "varchar(32)", (c) => c.notNull())
    .addColumn("code_hash", "varchar(64)", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", DT, (c) => c.notNull())
    .addColumn("expires_at", DT, (c) => c.notNull())
    .addColumn("used_at", DT)
    .execute();
  await db.schema.createIndex("sms_codes_phone").on("sms_codes").columns(["phone_number", "created_at"]).execute();
  // The daily SMS budget counts a location's codes since its local midnight on every send.
  await db.schema.createIndex("sms_codes_location").on("sms_codes").columns(["location_id", "created_at"]).execute();

  // Keys the service makes for itself once, shared by every instance (the portal's signing key).
  await db.schema
    .createTable("service_secrets")
    .addColumn("name", "varchar(64)", (c) => c.primaryKey())
    .addColumn("value", "varchar(255)", (c) => c.notNull())
    .addColumn("created_at", DT, (c) => c.notNull())
    .execute();

  // Rate-limit counters on PostgreSQL (instances sharing the database count together): one row per
  // limiter key, with the start of its window (epoch ms) and its hits in it.
  let rateLimits = db.schema.createTable("rate_limit_hits");
  if (postgres) rateLimits = rateLimits.modifyFront(sql`unlogged`);
  await rateLimits
    .addColumn("key", "varchar(255)", (c) => c.primaryKey())
    .addColumn("window_start", BIG, (c) => c.notNull())
    .addColumn("hits", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("rate_limit_hits_window").on("rate_limit_hits").column("window_start").execute();

  // Controllers (UniFi, Omada, RUCKUS); credentials sealed (src/db/secret-box.ts). A location has at
  // most one controller, linked in a table of its own.
  await db.schema
    .createTable("controllers")
    .addColumn("id", ID, pk)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("name", "varchar(255)", (c) => c.notNull())
    .addColumn("type", "varchar(16)", (c) => c.notNull())
    .addColumn("url", "varchar(2048)", (c) => c.notNull())
    .addColumn("site", "varchar(64)", (c) => c.notNull())
    .addColumn("auth", "varchar(16)", (c) => c.notNull())
    .addColumn("credentials", "text", (c) => c.notNull())
    .addColumn("tls_fingerprint", "varchar(64)", (c) => c.notNull().defaultTo(""))
    .addColumn("date_created", DT, (c) => c.notNull())
    .addColumn("last_modified", DT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("controllers_account").on("controllers").columns(["account_id", "id"]).execute();
  await db.schema
    .createTable("location_controllers")
    .addColumn("location_id", "integer", (c) => c.primaryKey().references("locations.id"))
    .addColumn("controller_id", "integer", (c) => c.notNull().references("controllers.id"))
    .execute();
  await db.schema.createIndex("location_controllers_controller").on("location_controllers").column("controller_id").execute();

  // Guests let in without RADIUS (a controller or a grant URL), for the RFC 8908 captive-portal API.
  await db.schema
    .createTable("portal_grants")
    .addColumn("id", ID, pk)
    .addColumn("location_id", "integer", (c) => c.notNull().references("locations.id"))
    .addColumn("client_ip", "varchar(45)", (c) => c.notNull())
    .addColumn("client_mac", "varchar(17)", (c) => c.notNull())
    .addColumn("granted_at", DT, (c) => c.notNull())
    .addColumn("expires_at", DT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("portal_grants_by_address").on("portal_grants").columns(["location_id", "client_ip", "expires_at"]).execute();
  await db.schema.createIndex("portal_grants_expiry").on("portal_grants").column("expires_at").execute();

  // openNDS (faslevel 3): clients a router's authmon may let in, waiting to be collected.
  await db.schema
    .createTable("opennds_grants")
    .addColumn("id", ID, pk)
    .addColumn("location_id", "integer", (c) => c.notNull().references("locations.id"))
    .addColumn("device_id", "integer", (c) => c.notNull())
    .addColumn("gateway_hash", "varchar(64)", (c) => c.notNull())
    .addColumn("rhid", "varchar(64)", (c) => c.notNull())
    .addColumn("entry", "varchar(255)", (c) => c.notNull())
    .addColumn("created_at", DT, (c) => c.notNull())
    .addColumn("expires_at", DT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("opennds_grants_gateway").on("opennds_grants").columns(["location_id", "gateway_hash"]).execute();
  await db.schema.createIndex("opennds_grants_expiry").on("opennds_grants").column("expires_at").execute();

  // The console's sign-in sessions; `id` is the SHA-256 of the cookie's token.
  await db.schema
    .createTable("console_sessions")
    .addColumn("id", "varchar(64)", (c) => c.primaryKey())
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("sub_user_id", "integer")
    .addColumn("csrf_token", "varchar(64)", (c) => c.notNull())
    .addColumn("created_at", DT, (c) => c.notNull())
    .addColumn("last_seen_at", DT, (c) => c.notNull())
    .addColumn("expires_at", DT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("console_sessions_expiry").on("console_sessions").column("expires_at").execute();

  // Signed webhooks: subscriptions, the outbox (written in the transaction of the change), attempts.
  await db.schema
    .createTable("webhooks")
    .addColumn("id", ID, pk)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("url", "varchar(2048)", (c) => c.notNull())
    // ",guest.login,session.start," and ",1,2," ("" for every location): matched with LIKE.
    .addColumn("events", "varchar(255)", (c) => c.notNull())
    .addColumn("location_ids", "varchar(2000)", (c) => c.notNull().defaultTo(""))
    .addColumn("secret", "varchar(64)", (c) => c.notNull())
    .addColumn("date_created", DT, (c) => c.notNull())
    .addColumn("last_modified", DT, (c) => c.notNull())
    .addColumn("deleted", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("webhooks_account").on("webhooks").columns(["account_id", "deleted"]).execute();
  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", ID, pk)
    .addColumn("webhook_id", "integer", (c) => c.notNull().references("webhooks.id"))
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("event_type", "varchar(32)", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    // pending, delivered or failed
    .addColumn("status", "varchar(16)", (c) => c.notNull().defaultTo("pending"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_ms", BIG, (c) => c.notNull())
    .addColumn("next_attempt_ms", BIG, (c) => c.notNull())
    // An instance sending it holds it until then; 0 when nobody does.
    .addColumn("lease_until_ms", BIG, (c) => c.notNull().defaultTo(0))
    .addColumn("last_status", "integer")
    .addColumn("last_error", "varchar(255)")
    .addColumn("finished_ms", BIG)
    .execute();
  await db.schema.createIndex("webhook_deliveries_queue").on("webhook_deliveries").columns(["status", "webhook_id", "id"]).execute();
  await db.schema.createIndex("webhook_deliveries_log").on("webhook_deliveries").columns(["webhook_id", "id"]).execute();
  await db.schema
    .createTable("webhook_attempts")
    .addColumn("id", ID, pk)
    .addColumn("delivery_id", "integer", (c) => c.notNull().references("webhook_deliveries.id"))
    .addColumn("attempted_ms", BIG, (c) => c.notNull())
    .addColumn("duration_ms", "integer", (c) => c.notNull())
    .addColumn("status_code", "integer")
    .addColumn("error", "varchar(255)")
    .execute();
  await db.schema.createIndex("webhook_attempts_delivery").on("webhook_attempts").columns(["delivery_id", "id"]).execute();

  // Vouchers: batches with their limits and locations, each code's first use and revocation, and
  // the devices that used it (docs/guest-data.md).
  await db.schema
    .createTable("voucher_batches")
    .addColumn("id", ID, pk)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("code_count", "integer", (c) => c.notNull())
    .addColumn("duration_minutes", "integer", (c) => c.notNull())
    .addColumn("data_cap", BIG, (c) => c.notNull().defaultTo(0))
    .addColumn("bandwidth_up", BIG, (c) => c.notNull().defaultTo(0))
    .addColumn("bandwidth_down", BIG, (c) => c.notNull().defaultTo(0))
    .addColumn("devices_per_code", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("expires_at", DT)
    .addColumn("created_at", DT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("voucher_batches_by_account").on("voucher_batches").columns(["account_id", "id"]).execute();
  await db.schema
    .createTable("voucher_batch_locations")
    .addColumn("batch_id", "integer", (c) => c.notNull().references("voucher_batches.id"))
    .addColumn("location_id", "integer", (c) => c.notNull().references("locations.id"))
    .addPrimaryKeyConstraint("voucher_batch_locations_pk", ["batch_id", "location_id"])
    .execute();
  await db.schema
    .createTable("vouchers")
    .addColumn("id", ID, pk)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("batch_id", "integer", (c) => c.notNull().references("voucher_batches.id"))
    .addColumn("code", "varchar(16)", (c) => c.notNull().unique())
    .addColumn("first_used_at", DT)
    .addColumn("ends_at", DT)
    .addColumn("revoked_at", DT)
    .execute();
  await db.schema.createIndex("vouchers_by_batch").on("vouchers").columns(["batch_id", "id"]).execute();
  await db.schema.createIndex("vouchers_by_account").on("vouchers").columns(["account_id", "id"]).execute();
  await db.schema
    .createTable("voucher_devices")
    .addColumn("voucher_id", "integer", (c) => c.notNull().references("vouchers.id"))
    .addColumn("device_key", "varchar(64)", (c) => c.notNull())
    .addColumn("first_used_at", DT, (c) => c.notNull())
    .addPrimaryKeyConstraint("voucher_devices_pk", ["voucher_id", "device_key"])
    .execute();

  // Messages that reach people (docs/messages.md): automations, the outbox of e-mails and texts
  // (`dedupe_key` makes a message that may be queued twice exist once), its attempts, the absence and
  // birthday runs, survey answers, consent changes outside a login, and numbers that replied STOP.
  await db.schema
    .createTable("automations")
    .addColumn("id", ID, pk)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("name", "varchar(100)", (c) => c.notNull())
    // welcome, visit-ended, absence, birthday
    .addColumn("trigger", "varchar(16)", (c) => c.notNull())
    // email or sms
    .addColumn("channel", "varchar(8)", (c) => c.notNull())
    // ",1,2," ("" for every location): matched with LIKE, as webhooks do.
    .addColumn("location_ids", "varchar(2000)", (c) => c.notNull().defaultTo(""))
    .addColumn("delay_minutes", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("absence_days", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("send_time", "varchar(5)", (c) => c.notNull().defaultTo("10:00"))
    .addColumn("subject", "varchar(255)", (c) => c.notNull().defaultTo(""))
    .addColumn("body", "text", (c) => c.notNull())
    // {"fr": {"subject": "...", "body": "..."}, ...}
    .addColumn("translations", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("cap_messages", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("cap_days", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("survey", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("survey_question", "varchar(255)", (c) => c.notNull().defaultTo(""))
    .addColumn("review_url", "varchar(2048)", (c) => c.notNull().defaultTo(""))
    .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("deleted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("date_created", DT, (c) => c.notNull())
    .addColumn("last_modified", DT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("automations_account").on("automations").columns(["account_id", "deleted", "trigger"]).execute();
  await db.schema
    .createTable("messages")
    .addColumn("id", ID, pk)
    .addColumn("account_id", "integer", (c) => c.references("accounts.id"))
    // automation, quick-report, test
    .addColumn("kind", "varchar(16)", (c) => c.notNull())
    .addColumn("channel", "varchar(8)", (c) => c.notNull())
    .addColumn("automation_id", "integer", (c) => c.references("automations.id"))
    .addColumn("guest_id", "integer")
    .addColumn("location_id", "integer")
    .addColumn("sub_user_id", "integer")
    .addColumn("dedupe_key", "varchar(160)", (c) => c.unique())
    // When what triggered it happened (UTC datetime): the login, the end of the session, the day.
    .addColumn("trigger_at", DT, (c) => c.notNull())
    .addColumn("recipient", "varchar(254)", (c) => c.notNull().defaultTo(""))
    .addColumn("subject", "varchar(255)", (c) => c.notNull().defaultTo(""))
    .addColumn("language", "varchar(16)", (c) => c.notNull().defaultTo(""))
    // The message as sent (the whole MIME message, or the text); null until an automation's message
    // is written at its first attempt.
    .addColumn("content", "text")
    // pending, sent, failed, skipped (not sent, with the reason), cancelled (withdrawn before sending)
    .addColumn("status", "varchar(16)", (c) => c.notNull().defaultTo("pending"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_ms", BIG, (c) => c.notNull())
    .addColumn("next_attempt_ms", BIG, (c) => c.notNull())
    .addColumn("lease_until_ms", BIG, (c) => c.notNull().defaultTo(0))
    .addColumn("last_status", "integer")
    .addColumn("last_error", "varchar(255)")
    .addColumn("finished_ms", BIG)
    // The SMTP server's answer or Twilio's message SID of the attempt that sent it.
    .addColumn("provider_id", "varchar(255)")
    .execute();
  await db.schema.createIndex("messages_queue").on("messages").columns(["status", "next_attempt_ms"]).execute();
  await db.schema.createIndex("messages_guest").on("messages").columns(["guest_id", "id"]).execute();
  await db.schema.createIndex("messages_location").on("messages").columns(["location_id", "id"]).execute();
  await db.schema.createIndex("messages_account").on("messages").columns(["account_id", "id"]).execute();
  await db.schema.createIndex("messages_cap").on("messages").columns(["automation_id", "guest_id", "status"]).execute();
  await db.schema
    .createTable("message_attempts")
    .addColumn("id", ID, pk)
    .addColumn("message_id", "integer", (c) => c.notNull().references("messages.id"))
    .addColumn("channel", "varchar(8)", (c) => c.notNull())
    .addColumn("attempted_ms", BIG, (c) => c.notNull())
    .addColumn("duration_ms", "integer", (c) => c.notNull())
    .addColumn("status_code", "integer")
    .addColumn("error", "varchar(255)")
    .execute();
  await db.schema.createIndex("message_attempts_message").on("message_attempts").columns(["message_id", "id"]).execute();
  await db.schema.createIndex("message_attempts_rate").on("message_attempts").columns(["channel", "attempted_ms"]).execute();
  await db.schema
    .createTable("automation_runs")
    .addColumn("automation_id", "integer", (c) => c.notNull().references("automations.id"))
    .addColumn("location_id", "integer", (c) => c.notNull())
    .addColumn("day", DAY, (c) => c.notNull())
    .addPrimaryKeyConstraint("automation_runs_pk", ["automation_id", "location_id", "day"])
    .execute();
  await db.schema
    .createTable("survey_answers")
    .addColumn("id", ID, pk)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("message_id", "integer", (c) => c.notNull().unique().references("messages.id"))
    .addColumn("automation_id", "integer", (c) => c.notNull())
    .addColumn("guest_id", "integer", (c) => c.notNull())
    .addColumn("location_id", "integer", (c) => c.notNull())
    .addColumn("score", "integer", (c) => c.notNull())
    .addColumn("comment", "varchar(2000)", (c) => c.notNull().defaultTo(""))
    .addColumn("answered_at", DT, (c) => c.notNull())
    // The location's local day of the answer: the console's score over time.
    .addColumn("local_day", DAY, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("survey_answers_location").on("survey_answers").columns(["location_id", "local_day"]).execute();
  await db.schema.createIndex("survey_answers_guest").on("survey_answers").columns(["guest_id", "id"]).execute();
  await db.schema
    .createTable("consent_events")
    .addColumn("id", ID, pk)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("guest_id", "integer", (c) => c.notNull())
    .addColumn("marketing_opt_in", "integer", (c) => c.notNull())
    // unsubscribe-link, one-click, sms-stop
    .addColumn("source", "varchar(32)", (c) => c.notNull())
    .addColumn("message_id", "integer")
    .addColumn("changed_at", DT, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("consent_events_guest").on("consent_events").columns(["guest_id", "id"]).execute();
  await db.schema
    .createTable("sms_opt_outs")
    .addColumn("phone_number", "varchar(32)", (c) => c.notNull().primaryKey())
    .addColumn("opted_out_at", DT, (c) => c.notNull())
    .execute();

  if (postgres) {
    await catalogueNotifications(db);
    await guestSearchPostgres(db);
  } else {
    await guestSearchSqlite(db);
  }

  const now = new Date().toISOString().slice(0, 19).replace("T", " ");
  for (const t of BUILTIN_TEMPLATES) {
    await db
      .insertInto("campaigns")
      .values({
        account_id: null,
        name: t.name,
        ssid: t.payload.ssid,
        payload: JSON.stringify(t.payload),
        filename: t.filename,
        date_created: now,
        last_modified: now,
        deleted: 0,
      })
      .execute();
  }
}

/** PostgreSQL: catalogue writes NOTIFY `guestwifi_catalogue` (one per statement, folded per transaction). */
async function catalogueNotifications(db: Kysely<any>): Promise<void> {
  await sql`create or replace function guestwifi_catalogue_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('guestwifi_catalogue', current_schema());
      return null;
    end $$`.execute(db);
  for (const t of CATALOGUE_TABLES) {
    await sql`create trigger ${sql.raw(`${t}_catalogue_changed`)} after insert or update or delete or truncate on ${sql.table(t)}
      for each statement execute function guestwifi_catalogue_changed()`.execute(db);
  }
  await sql`create trigger devices_catalogue_changed after insert or ${sql.raw(`update of ${DEVICE_COLUMNS.join(", ")}`)} or delete or truncate on devices
    for each statement execute function guestwifi_catalogue_changed()`.execute(db);
}

/**
 * PostgreSQL: a GIN trigram index on the guest search text, which the planner uses for the query's
 * LIKE. pg_trgm is a trusted extension (a database owner may create it); where it cannot be created
 * the index is left out and the search scans.
 */
async function guestSearchPostgres(db: Kysely<any>): Promise<void> {
  await sql`savepoint guest_search_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
    await sql`release savepoint guest_search_trgm`.execute(db);
  } catch {
    // No right to create it, or another migration created it at the same moment: see below.
    await sql`rollback to savepoint guest_search_trgm`.execute(db);
  }
  const opclass = await sql<{ nspname: string }>`
    select n.nspname from pg_opclass c join pg_namespace n on n.oid = c.opcnamespace where c.opcname = 'gin_trgm_ops' limit 1`.execute(db);
  const schema = opclass.rows[0]?.nspname;
  if (schema !== undefined) {
    await sql`create index guests_search_trgm on guests using gin ((${SEARCH_TEXT}) ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
  }
}

/** SQLite: an FTS5 trigram table kept by triggers on guests, so every writer keeps it without knowing. */
async function guestSearchSqlite(db: Kysely<any>): Promise<void> {
  await sql`create virtual table guest_search using fts5(text, tokenize='trigram')`.execute(db);
  await sql`create trigger guest_search_insert after insert on guests begin
    insert into guest_search (rowid, text) values (new.id, lower(new.full_name || ' ' || new.email || ' ' || new.phone_number));
  end`.execute(db);
  await sql`create trigger guest_search_update after update of full_name, email, phone_number on guests
    when old.full_name is not new.full_name or old.email is not new.email or old.phone_number is not new.phone_number begin
    delete from guest_search where rowid = old.id;
    insert into guest_search (rowid, text) values (new.id, lower(new.full_name || ' ' || new.email || ' ' || new.phone_number));
  end`.execute(db);
  await sql`create trigger guest_search_delete after delete on guests begin
    delete from guest_search where rowid = old.id;
  end`.execute(db);
}

/*
 * The built-in templates, frozen here as data: a migration inserts the same rows whenever it runs.
 */
const TEMPLATE_BASE = {
  version: 1,
  ssid: "GuestWiFi",
  footer_text: "Free WiFi for our guests",
  text_color: "1f2933",
  background: "f5f7fa",
  custom_terms:
    "<p>By connecting you agree to use this network lawfully and accept that we record your login " +
    "details to operate the service.</p>",
  redirect_url: "",
  custom_fields: { name: true, email: true, phone: false },
};
const NO_LOGINS = { facebook: false, custom: false, twitter: false, instagram: false, linkedin: false, email: false, sms: false, clickthrough: false };

const BUILTIN_TEMPLATES = [
  {
    name: "CustomFormLogin",
    filename: "template-custom-form.html",
    payload: { ...TEMPLATE_BASE, title_text: "Welcome! Tell us who you are", login_options: { ...NO_LOGINS, custom: true } },
  },
  {
    name: "SocialLogin",
    filename: "template-social-login.html",
    payload: {
      ...TEMPLATE_BASE,
      title_text: "Welcome! Log in to get online",
      login_options: { ...NO_LOGINS, facebook: true, twitter: true, instagram: true, linkedin: true, email: true },
    },
  },
  {
    name: "ClickThrough",
    filename: "template-click-through.html",
    payload: { ...TEMPLATE_BASE, title_text: "Free WiFi", login_options: { ...NO_LOGINS, clickthrough: true } },
  },
] as const;

export async function down(): Promise<void> {
  throw new Error("the baseline is not reversible: drop the database (or the PostgreSQL schema) instead");
}
