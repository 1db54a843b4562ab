/**
 * A whole app plus the RADIUS server on ephemeral loopback ports, on a fresh database, and the
 * rows RADIUS needs (location with options, access point with its secret, guests), written through
 * the repositories and services the product itself uses.
 */
import { randomBytes } from "node:crypto";
import { type Config, loadConfig } from "../../src/config.js";
import { nowDatetime } from "../../src/db/time.js";
import { type Metrics, createMetrics } from "../../src/metrics.js";
import { newRadiusSecret } from "../../src/modules/devices/devices.service.js";
import { recordLogin } from "../../src/modules/guests/guest-activity.service.js";
import { type RadiusListener, startRadius } from "../../src/radius/radius-server.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import type { Dialect } from "../helpers/db.js";

export interface RadiusEnv extends TestApp {
  radius: RadiusListener;
  radiusConfig: Readonly<Config>;
  /** The RADIUS server's metrics (what its /metrics would show). */
  radiusMetrics: Metrics;
}

export async function createRadiusEnv(dialect: Dialect, env: Record<string, string> = {}, appEnv: Record<string, string> = {}): Promise<RadiusEnv> {
  const t = await createTestApp(dialect, appEnv);
  const radiusConfig = loadConfig({
    LOG_LEVEL: "silent",
    RADIUS_HOST: "127.0.0.1",
    RADIUS_AUTH_PORT: "0",
    RADIUS_ACCT_PORT: "0",
    RADIUS_INTERIM_INTERVAL: "120",
    ...env,
  });
  const radiusMetrics = createMetrics();
  const radius = await startRadius({ db: t.db, config: radiusConfig, log: t.app.log, ctx: t.deps, metrics: radiusMetrics });
  const close = t.close;
  return Object.assign(t, {
    radius,
    radiusConfig,
    radiusMetrics,
    async close() {
      await radius.stop();
      await close();
    },
  });
}

export interface LocationOptionsInput {
  session_time_limit?: number;
  max_bandwidth_up?: number;
  max_bandwidth_down?: number;
  daily_bandwidth_cap?: number;
}

let seq = 0;

export async function makeLocation(t: TestApp, options: LocationOptionsInput = {}, timezone = "America/Chicago"): Promise<number> {
  const now = nowDatetime();
  const id = await t.deps.repos.locations.insert(t.db, {
    account_id: t.accountId,
    name: `Cafe ${++seq}`,
    address1: "1 Main Street",
    town: "Springfield",
    state: "IL",
    zipcode: "62701",
    country: "US",
    phone_number: "(217)555-0100",
    timezone,
    portal_slug: `radius-${randomBytes(6).toString("hex")}`,
    date_created: now,
    last_modified: now,
    deleted: 0,
  });
  await t.deps.repos.locations.upsertOptions(t.db, {
    location_id: id,
    session_time_limit: options.session_time_limit ?? 0,
    max_bandwidth_up: options.max_bandwidth_up ?? 0,
    max_bandwidth_down: options.max_bandwidth_down ?? 0,
    daily_bandwidth_cap: options.daily_bandwidth_cap ?? 0,
    content_filter: 0,
    dns_server_1: "",
    dns_server_2: "",
    whitelist: "",
    blacklist: "",
    updated_at: now,
  });
  return id;
}

/** A random locally administered MAC, canonical form. */
export function randomMac(): string {
  const b = randomBytes(6);
  b[0] = (b[0] | 0x02) & 0xfe;
  return [...b].map((x) => x.toString(16).padStart(2, "0").toUpperCase()).join(":");
}

export function dashed(mac: string): string {
  return mac.replace(/:/g, "-");
}

/** An access point of `modelId` (default: one outside the catalogue, answered in the fallback dialect). */
export async function makeDevice(t: TestApp, locationId: number | null, accountId = t.accountId, modelId = "test-ap"): Promise<{ id: number; mac: string; secret: string }> {
  const mac = randomMac();
  const secret = newRadiusSecret(); // as create-device makes them
  const now = nowDatetime();
  const id = await t.deps.repos.devices.insert(t.db, {
    account_id: accountId,
    location_id: locationId,
    model_id: modelId,
    name: `AP ${++seq}`,
    mac_address: mac,
    radius_secret: secret,
    last_upgraded: null,
    last_heard_at: null,
    create_date: now,
    update_date: now,
  });
  return { id, mac, secret };
}

/** A guest who logged in through the portal at `locationId` from `clientMac` (so guest_macs knows them). */
export async function makeGuest(t: TestApp, locationId: number, clientMac: string, at = new Date()): Promise<number> {
  const r = await recordLogin(t.db, {
    accountId: t.accountId,
    locationId,
    timezone: "America/Chicago",
    campaignId: 0,
    deviceId: null,
    loginType: "Muser",
    identity: `guest${++seq}-${randomBytes(4).toString("hex")}@example.com`,
    profile: {},
    clientMac,
    userAgent: "",
    at,
  });
  return r.guestId;
}

/** Attribute lines for a PAP Access-Request from access point `ap` for client `clientMac`. */
export function papRequest(apMac: string, clientMac: string, username: string, password: string, withMa = true): string[] {
  return [
    `User-Name = "${username}"`,
    `User-Password = "${password}"`,
    `Called-Station-Id = "${dashed(apMac)}:GuestWiFi"`,
    `Calling-Station-Id = "${dashed(clientMac)}"`,
    `NAS-IP-Address = 127.0.0.1`,
    ...(withMa ? ["Message-Authenticator = 0x00"] : []),
  ];
}
