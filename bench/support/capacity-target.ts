/**
 * Target of the capacity benchmark, in its own process: seeds a venue day's database, then runs the
 * whole service as `guestwifi serve` does (HTTP, portal, RADIUS, the webhook worker), so that every
 * path shares one process and one database as in a deployment.
 *
 * `tsx bench/support/capacity-target.ts <databaseUrl> <pgSchema|""> <json options>`, options:
 * { mode: "stadium" | "spread", guests, aps, locations, webhookUrl }. Seeded: one account (with a
 * console password), `locations` locations sharing `aps` CoovaChilli access points, a custom-form
 * campaign, `guests` returning guests (a MAC each, logged in today) each with an open RADIUS session
 * (and, with `visitsCounted`, today's visit counted)
 * on one access point, and a webhook on session and login events. Prints one line of JSON when ready;
 * stops on SIGTERM (dropping the PostgreSQL schema).
 *
 * With `split`, the service runs as two instances on the database (docs/operations.md, "RADIUS in
 * an instance of its own, measured"): this process serves HTTP (`guestwifi serve --no-radius`) and starts a child
 * that serves RADIUS (`--radius-only`): `tsx bench/support/capacity-target.ts --radius-only
 * <databaseUrl> <httpPort> <json options>`, which prints its ports as one line of JSON and stops on
 * SIGTERM.
 */
import { appendFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { createHash, randomBytes } from "node:crypto";
import { type AddressInfo, createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import pino from "pino";
import { loadConfig } from "../../src/config.js";
import type { DB } from "../../src/db/database.js";
import { migrateToLatest } from "../../src/db/migrator.js";
import { nowDatetime } from "../../src/db/time.js";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";
import { createRepositories } from "../../src/modules/context.js";
import { localDay } from "../../src/modules/guests/local-day.js";
import { startService } from "../../src/server.js";
import { type Target, startTarget } from "./target.js";
import { dropTargetDatabase, openTargetDatabase, ready } from "./target-process.js";

export const CAPACITY_SECRET = "capacity-secret-7c1e";
const UAM_SECRET = "capacity-uam-secret";
const PASSWORD = "capacity owner password";
const PORTAL_CLIENTS = 64;
const CHUNK = 500;
/** Every location's time zone (the seeded visits are of its local day). */
const TIMEZONE = "Europe/Berlin";

export interface CapacityOptions {
  mode: "stadium" | "spread";
  guests: number;
  aps: number;
  locations: number;
  webhookUrl: string;
  /** Where the service logs (warnings and errors), for the benchmark to sum up. */
  logFile: string;
  /**
   * Where the service's event loop utilisation is written once a second (`<epoch ms> <0..1>` per
   * line): how busy its one JavaScript thread was, which CPU per process does not tell apart.
   */
  eluFile: string;
  /**
   * Whether each guest's visit of today is already counted, as the first packet of its session
   * (opened today) counted it: the service then starts in the middle of the venue's day. False: no
   * guest has a visit yet, so every guest's first packet in the run writes its visit of the day
   * (200,000 first visits within the run, as the runs before 2026-11-28's fifth session measured).
   */
  visitsCounted: boolean;
  /** RADIUS in an instance (process) of its own, HTTP in this one. */
  split: boolean;
}

export interface CapacityTargetInfo {
  port: number;
  authPort: number;
  acctPort: number;
  identifier: string;
  cookie: string;
  /** The location of the login burst (the stadium's, or the first). */
  slug: string;
  locationIds: number[];
  /** Access point MACs (AA-BB-..), guest i's sessions are on aps[i % aps.length]. */
  aps: string[];
  clients: { cookie: string; state: string }[];
  seedSeconds: number;
  /** With `split`: the RADIUS instance's process (its CPU and memory count with this one's). */
  radiusPid?: number;
}

/** Guest i's client MAC, in the dashed form gateways send. */
export const guestMac = (i: number) =>
  `02-CA-${((i >> 24) & 255).toString(16).padStart(2, "0")}-${((i >> 16) & 255).toString(16).padStart(2, "0")}-${((i >> 8) & 255).toString(16).padStart(2, "0")}-${(i & 255).toString(16).padStart(2, "0")}`.toUpperCase();
export const apMac = (i: number) => `02-AB-00-00-${((i >> 8) & 255).toString(16).padStart(2, "0")}-${(i & 255).toString(16).padStart(2, "0")}`.toUpperCase();
const colon = (mac: string) => mac.replace(/-/g, ":");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function inChunks(n: number, insert: (from: number, to: number) => Promise<unknown>): Promise<void> {
  for (let from = 0; from < n; from += CHUNK) await insert(from, Math.min(n, from + CHUNK));
}

/** Bulk rows (recordLogin per guest would take an hour at 200,000): guests, their MACs, open sessions. */
async function seedGuests(db: DB, accountId: number, opts: CapacityOptions, apIds: number[], apLocation: number[]): Promise<void> {
  const now = nowDatetime();
  await inChunks(opts.guests, (from, to) =>
    db
      .insertInto("guests")
      .values(
        Array.from({ length: to - from }, (_, k) => ({
          account_id: accountId, social_network: "Muser", network_user_id: `cap${from + k}@bench.example`, email: `cap${from + k}@bench.example`,
          radius_session_first_datetime: null, radius_session_last_datetime: null, created_at: now, updated_at: now,
        })),
      )
      .execute(),
  );
  const first = await db.selectFrom("guests").select((eb) => eb.fn.min<number>("id").as("id")).where("account_id", "=", accountId).executeTakeFirstOrThrow();
  const firstId = Number(first.id);
  await inChunks(opts.guests, (from, to) =>
    db
      .insertInto("guest_macs")
      .values(Array.from({ length: to - from }, (_, k) => ({ account_id: accountId, client_mac: colon(guestMac(from + k)), guest_id: firstId + from + k, last_login_at: now })))
      .execute(),
  );
  await inChunks(opts.guests, (from, to) =>
    db
      .insertInto("radius_sessions")
      .values(
        Array.from({ length: to - from }, (_, k) => {
          const i = from + k;
          const ap = i % apIds.length;
          return {
            device_id: apIds[ap], guest_id: firstId + i, location_id: apLocation[ap], acct_session_id: `cap-${i}`, username: guestMac(i),
            client_mac: colon(guestMac(i)), started_at: now, updated_at: now, stopped_at: null, session_time: 0, input_octets: 0, output_octets: 0,
            framed_ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, nas_ip: "127.0.0.1",
          };
        }),
      )
      .execute(),
  );
  if (!opts.visitsCounted) return;
  // Today's visit of each guest at its access point's location, and each location's count of them.
  const day = localDay(new Date(), TIMEZONE);
  await inChunks(opts.guests, (from, to) =>
    db
      .insertInto("daily_visitors")
      .values(Array.from({ length: to - from }, (_, k) => ({ location_id: apLocation[(from + k) % apIds.length], day, guest_id: firstId + from + k })))
      .execute(),
  );
  const perLocation = new Map<number, number>();
  for (let i = 0; i < opts.guests; i++) {
    const location = apLocation[i % apIds.length];
    perLocation.set(location, (perLocation.get(location) ?? 0) + 1);
  }
  await db
    .insertInto("daily_visits")
    .values([...perLocation].map(([location_id, count]) => ({ location_id, day, shard: 0, count })))
    .execute();
}

function coovaPage(base: string, ap: string, client: string): string {
  const url =
    `${base}?res=notyet&uamip=10.1.0.1&uamport=3990&challenge=${randomBytes(16).toString("hex")}` +
    `&called=${ap}&mac=${client}&ip=10.1.0.9&userurl=${encodeURIComponent("http://example.org/")}`;
  return `${url}&md=${createHash("md5").update(url).update(UAM_SECRET).digest("hex").toUpperCase()}`;
}

async function main(databaseUrl: string, schema: string | undefined, opts: CapacityOptions): Promise<void> {
  const started = Date.now();
  const seedDb = await openTargetDatabase(databaseUrl, schema);
  await migrateToLatest(seedDb);
  const email = `capacity-${Date.now()}@example.com`;
  const { accountId, identifier } = await createAccount({ db: seedDb, repos: createRepositories() }, email, PASSWORD);
  const now = nowDatetime();
  const locationIds: number[] = [];
  for (let l = 0; l < opts.locations; l++) {
    const row = await seedDb
      .insertInto("locations")
      .values({
        account_id: accountId, name: `Venue ${l}`, address1: `${l} Main Street`, town: "Springfield", state: "IL", zipcode: "62701", country: "US",
        phone_number: "(217)555-0100", timezone: TIMEZONE, portal_slug: `cap-${l}-${randomBytes(3).toString("hex")}`, date_created: now, last_modified: now, deleted: 0,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    locationIds.push(row.id);
    await seedDb
      .insertInto("location_options")
      .values({
        location_id: row.id, session_time_limit: 14_400, max_bandwidth_up: 250_000, max_bandwidth_down: 1_250_000, daily_bandwidth_cap: 2_000_000_000,
        content_filter: 0, dns_server_1: "", dns_server_2: "", whitelist: "", blacklist: "", updated_at: now,
      })
      .execute();
  }
  const apLocation = Array.from({ length: opts.aps }, (_, a) => locationIds[a % locationIds.length]);
  await inChunks(opts.aps, (from, to) =>
    seedDb
      .insertInto("devices")
      .values(
        Array.from({ length: to - from }, (_, k) => ({
          account_id: accountId, location_id: apLocation[from + k], model_id: "coovachilli", name: `AP ${from + k}`, mac_address: colon(apMac(from + k)),
          radius_secret: CAPACITY_SECRET, last_upgraded: null, last_heard_at: null, create_date: now, update_date: now,
        })),
      )
      .execute(),
  );
  const devices = await seedDb.selectFrom("devices").select(["id", "mac_address"]).where("account_id", "=", accountId).orderBy("id").execute();
  const apIds = devices.map((d) => d.id);
  await seedGuests(seedDb, accountId, opts, apIds, apLocation);
  const slug = (await seedDb.selectFrom("locations").select("portal_slug").where("id", "=", locationIds[0]).executeTakeFirstOrThrow()).portal_slug;
  // Fresh statistics after bulk inserts, as autovacuum would gather them on a live database.
  if (schema) await sql`analyze`.execute(seedDb);
  await seedDb.destroy();

  const port = await freePort();
  const config = serviceConfig(databaseUrl, port);
  // PostgreSQL: the service's connections find the bench schema through PGOPTIONS (set by the bench).
  const service = await startService(config, { logger: serviceLog(opts.logFile), radius: !opts.split });
  const radiusInstance = opts.split ? await startRadiusInstance(databaseUrl, port, opts) : undefined;
  const api = async (url: string, payload: Record<string, unknown>) => {
    const res = await service.app.inject({ method: "POST", url: `/api/${url}`, payload: { identifier, ...payload } });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.body}`);
    return res.json();
  };
  const campaign = await api("create-or-update-campaign", { template_campaign_id: 1, name: "Capacity", title_text: "Welcome", login_options: { custom: 1 }, redirect_url: "" });
  for (const id of locationIds) await api("location-assign-campaign", { location_id: id, campaign_id: campaign.campaign_id });
  await api("create-or-update-webhook", { url: opts.webhookUrl, events: "guest.login,session.start,session.stop" });
  const signIn = await service.app.inject({ method: "POST", url: "/console/api/sign-in", payload: { email, password: PASSWORD } });
  if (signIn.statusCode !== 200) throw new Error(`sign-in: ${signIn.body}`);
  const cookie = String(signIn.headers["set-cookie"]).split(";")[0];

  const base = `http://127.0.0.1:${port}/portal/l/${slug}`;
  const clients: CapacityTargetInfo["clients"] = [];
  for (let i = 0; i < PORTAL_CLIENTS; i++) {
    const page = await fetch(coovaPage(base, apMac(0), `02-C1-00-00-00-${i.toString(16).padStart(2, "0")}`.toUpperCase()));
    const html = await page.text();
    const state = /name="state" value="([^"]+)"/.exec(html)?.[1];
    const pageCookie = (page.headers.get("set-cookie") ?? "").split(";")[0];
    if (page.status !== 200 || !state || !pageCookie) throw new Error(`login page answered ${page.status}`);
    clients.push({ cookie: pageCookie, state });
  }
  const info: CapacityTargetInfo = {
    port,
    authPort: radiusInstance?.info.authPort ?? service.radius!.authPort,
    acctPort: radiusInstance?.info.acctPort ?? service.radius!.acctPort,
    identifier,
    cookie,
    slug,
    locationIds,
    aps: devices.map((d) => d.mac_address.replace(/:/g, "-").toUpperCase()),
    clients,
    seedSeconds: (Date.now() - started) / 1000,
    radiusPid: radiusInstance?.pid,
  };
  ready(info);
  const eluTimer = sampleEventLoop(opts.eluFile);
  process.once("SIGTERM", () => {
    clearInterval(eluTimer);
    void (async () => {
      await radiusInstance?.stop();
      await service.stop();
      if (schema) await dropTargetDatabase(await openTargetDatabase(databaseUrl, undefined), schema).catch(() => undefined);
      process.exit(0);
    })();
  });
}

/** The service's settings, HTTP on `port` (the RADIUS instance of a split run listens on none, but has the same PUBLIC_URL). */
function serviceConfig(databaseUrl: string, port: number) {
  return loadConfig({
    ...process.env,
    LOG_LEVEL: "warn",
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: databaseUrl,
    RADIUS_ENABLED: "true",
    RADIUS_HOST: "127.0.0.1",
    RADIUS_AUTH_PORT: "0",
    RADIUS_ACCT_PORT: "0",
    PORTAL_SECRET: "capacity-portal-secret-0123456789",
    COOVA_UAM_SECRET: UAM_SECRET,
    // Each bench client logs in far more often than a guest would; the limiter is not what is measured.
    PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "1000000",
    WEBHOOK_ALLOW_PRIVATE: "true",
    WEBHOOK_POLL_MS: "200",
  });
}

const serviceLog = (file: string) => ({ level: "warn" as const, stream: pino.destination({ dest: file, sync: false }) });

/**
 * Writes, once a second, the second's event-loop utilisation and the V8 heap in use (MB) to `file`:
 * RSS alone does not tell live objects from memory not yet given back.
 */
function sampleEventLoop(file: string): NodeJS.Timeout {
  let elu = performance.eventLoopUtilization();
  return setInterval(() => {
    const now = performance.eventLoopUtilization();
    const heapMb = process.memoryUsage().heapUsed / 1048576;
    appendFileSync(file, `${Date.now()} ${performance.eventLoopUtilization(now, elu).utilization.toFixed(4)} ${heapMb.toFixed(1)}\n`);
    elu = now;
  }, 1000);
}

/** The RADIUS instance's samples and log beside this one's (`<file>.radius`). */
export const radiusFile = (file: string) => `${file}.radius`;

/**
 * A split run's RADIUS instance: this file again with --radius-only (startTarget, as the bench
 * starts this one), on the same database (the PostgreSQL schema through the PGOPTIONS it inherits),
 * under this process's Node options but the loader startTarget adds (a CPU profile too). Resolves
 * with its ports once it listens.
 */
function startRadiusInstance(databaseUrl: string, httpPort: number, opts: CapacityOptions): Promise<Target<{ authPort: number; acctPort: number }>> {
  const nodeArgs = process.execArgv.filter((a, i, all) => !(a === "--import" && all[i + 1] === "tsx") && !(a === "tsx" && all[i - 1] === "--import"));
  return startTarget(fileURLToPath(import.meta.url), ["--radius-only", databaseUrl, String(httpPort), JSON.stringify(opts)], 60_000, nodeArgs);
}

/** The RADIUS instance of a split run: `guestwifi serve --radius-only` on the seeded database. */
async function radiusOnly(databaseUrl: string, httpPort: number, opts: CapacityOptions): Promise<void> {
  const service = await startService(serviceConfig(databaseUrl, httpPort), { logger: serviceLog(radiusFile(opts.logFile)), http: false, radius: true });
  ready({ authPort: service.radius!.authPort, acctPort: service.radius!.acctPort });
  const eluTimer = sampleEventLoop(radiusFile(opts.eluFile));
  // Not left behind should the HTTP instance be killed without a chance to stop it (this process
  // is then adopted: its parent changes).
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.kill(process.pid, "SIGTERM");
  }, 1000).unref();
  process.once("SIGTERM", () => {
    clearInterval(eluTimer);
    void service.stop().then(() => process.exit(0));
  });
}

// The benchmark imports this file for its names; only the target process runs it.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === "--radius-only") await radiusOnly(process.argv[3], Number(process.argv[4]), JSON.parse(process.argv[5]) as CapacityOptions);
  else {
    const [databaseUrl, schema, json] = process.argv.slice(2);
    await main(databaseUrl, schema || undefined, JSON.parse(json) as CapacityOptions);
  }
}
