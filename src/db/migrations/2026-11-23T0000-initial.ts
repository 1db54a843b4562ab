/**
 * The whole product's schema: accounts and identifiers, sub-users, locations and their options,
 * campaigns (with built-in templates), devices, guests, logins, RADIUS sessions and the daily
 * aggregates that analytics read. Written once with the schema builder for SQLite and PostgreSQL.
 * Datetimes are UTC text `YYYY-MM-DD HH:MM:SS` (sortable on both), days are `YYYY-MM-DD` text in the
 * location's time zone, flags are 0/1 integers.
 */
import type { Kysely } from "kysely";
import { BIG, idColumn, idColumnType } from "../dialect.js";

const DT = "varchar(19)" as const;
const DAY = "varchar(10)" as const;

export async function up(db: Kysely<any>): Promise<void> {
  const ID = idColumnType(db);
  const pk = idColumn(db);

  await db.schema
    .createTable("accounts")
    .addColumn("id", ID, pk)
    .addColumn("email", "varchar(254)", (c) => c.notNull().unique())
    .addColumn("created_at", DT, (c) => c.notNull())
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
    .execute();
  await db.schema.createIndex("sub_users_account").on("sub_users").column("account_id").execute();

  // Identifiers are stored only as SHA-256 hashes of the secret.
  await db.schema
    .createTable("api_identifiers")
    .addColumn("id", ID, pk)
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("sub_user_id", "integer", (c) => c.references("sub_users.id"))
    .addColumn("token_hash", "varchar(64)", (c) => c.notNull().unique())
    .addColumn("created_at", DT, (c) => c.notNull())
    .addColumn("revoked_at", DT)
    .execute();

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
    .addUniqueConstraint("guests_identity", ["account_id", "social_network", "network_user_id"])
    .execute();

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

  // Which guest a client MAC belongs to, for returning guests accepted by RADIUS without the portal.
  await db.schema
    .createTable("guest_macs")
    .addColumn("account_id", "integer", (c) => c.notNull().references("accounts.id"))
    .addColumn("client_mac", "varchar(17)", (c) => c.notNull())
    .addColumn("guest_id", "integer", (c) => c.notNull().references("guests.id"))
    .addColumn("last_login_at", DT, (c) => c.notNull())
    .addPrimaryKeyConstraint("guest_macs_pk", ["account_id", "client_mac"])
    .execute();

  // Daily aggregates, one row per location and local day: what analytics read.
  await db.schema
    .createTable("daily_logins")
    .addColumn("location_id", "integer", (c) => c.notNull())
    .addColumn("day", DAY, (c) => c.notNull())
    .addColumn("login_type", "varchar(16)", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("daily_logins_pk", ["location_id", "day", "login_type"])
    .execute();
  await db.schema
    .createTable("daily_visitors")
    .addColumn("location_id", "integer", (c) => c.notNull())
    .addColumn("day", DAY, (c) => c.notNull())
    .addColumn("guest_id", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("daily_visitors_pk", ["location_id", "day", "guest_id"])
    .execute();
  await db.schema
    .createTable("daily_visits")
    .addColumn("location_id", "integer", (c) => c.notNull())
    .addColumn("day", DAY, (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("daily_visits_pk", ["location_id", "day"])
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
    .addUniqueConstraint("radius_sessions_key", ["device_id", "acct_session_id"])
    .execute();
  await db.schema.createIndex("radius_sessions_guest").on("radius_sessions").column("guest_id").execute();

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

/*
 * The built-in templates as this migration inserts them, frozen here as data: a migration must
 * insert the same rows whenever it runs, so it never reads application code that may change later.
 * Changing a template means a new migration that updates its row.
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

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    "sms_codes",
    "radius_sessions",
    "portal_credentials",
    "daily_usage",
    "daily_visits",
    "daily_visitors",
    "daily_logins",
    "guest_macs",
    "guest_locations",
    "logins",
    "guests",
    "devices",
    "location_options",
    "locations",
    "campaigns",
    "api_identifiers",
    "sub_users",
    "accounts",
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
