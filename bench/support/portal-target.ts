/**
 * The portal benchmark's target, in its own process (the load generator must not share its event
 * loop): `tsx bench/support/portal-target.ts app <databaseUrl> [pgSchema]` seeds an account, a
 * location with a custom-form campaign and a registered CoovaChilli AP, opens the login page as
 * CLIENTS guests (distinct client MACs, each with its session cookie and signed page state) and
 * serves the real app; `... app-logged <databaseUrl>` does the same with the logger a deployment
 * has (LOG_LEVEL=info, one access line per request) writing to /dev/null; `... bare <html>` serves
 * that page's HTML from memory on a bare Fastify route; `... bare-work <html> <us>` does so after that
 * many microseconds of busy work per request. Prints one line of JSON when ready; stops
 * on SIGTERM.
 */
import { createHash, randomBytes } from "node:crypto";
import { type AddressInfo, createServer } from "node:net";
import pino from "pino";
import { buildApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { migrateToLatest } from "../../src/db/migrator.js";
import { createLogger } from "../../src/logger.js";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";
import { openTargetDatabase, ready, serveBare, stopOnSigterm } from "./target-process.js";

const CLIENTS = 64;
const UAM_SECRET = "bench-uam-secret";

export interface PortalTargetInfo {
  port: number;
  /** The login page as a Coova gateway links to it (path and query, md included). */
  pagePath: string;
  clients: { cookie: string; state: string }[];
}

const [mode, arg, schema] = process.argv.slice(2);

const dashed = (mac: string) => mac.replace(/:/g, "-");

/** The URL CoovaChilli redirects a guest to, signed with `md` as it does with a uamsecret. */
function coovaPage(base: string, apMac: string, clientMac: string): string {
  const url =
    `${base}?res=notyet&uamip=10.1.0.1&uamport=3990&challenge=${randomBytes(16).toString("hex")}` +
    `&called=${dashed(apMac)}&mac=${dashed(clientMac)}&ip=10.1.0.9&userurl=${encodeURIComponent("http://example.org/")}`;
  return `${url}&md=${createHash("md5").update(url).update(UAM_SECRET).digest("hex").toUpperCase()}`;
}

/** A TCP port free on loopback right now. */
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

/** `logged`: the logger a deployment has (LOG_LEVEL=info, one access line per request), writing to /dev/null. */
async function serveApp(databaseUrl: string, logged = false) {
  const db = await openTargetDatabase(databaseUrl, schema);
  await migrateToLatest(db);
  // The address guests reach is PUBLIC_URL, as in a deployment: gateways build their redirect (and
  // CoovaChilli its md) from the location's url, which is made from it.
  const port = await freePort();
  const config = loadConfig({
    LOG_LEVEL: "silent",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: databaseUrl,
    RADIUS_ENABLED: "false",
    PORTAL_SECRET: "bench-portal-secret-0123456789",
    COOVA_UAM_SECRET: UAM_SECRET,
    // Each client logs in far more often than a guest would; the limiter must not be what is measured.
    PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "1000000",
  });
  const logger = logged ? createLogger({ level: "info", stream: pino.destination({ dest: "/dev/null", sync: false }) }) : false;
  const app = await buildApp({ config, db, logger });
  await app.ready();
  const { identifier } = await createAccount(app.deps, `bench-portal-${Date.now()}@example.com`);
  const api = async (url: string, payload: Record<string, unknown>) => {
    const res = await app.inject({ method: "POST", url: `/api/${url}`, payload: { identifier, ...payload } });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.body}`);
    return res.json();
  };
  const loc = await api("create-or-update-location", {
    location_name: "Bench Cafe", address1: "1 Main Street", town: "Springfield", state: "IL", zipcode: "62701",
    country: "US", phone_number: "(217)555-0100", timezone: "Europe/Berlin",
  });
  const campaign = await api("create-or-update-campaign", {
    template_campaign_id: 1, name: "Bench", title_text: "Welcome", login_options: { custom: 1 }, redirect_url: "",
  });
  await api("location-assign-campaign", { location_id: loc.location_id, campaign_id: campaign.campaign_id });
  const apMac = "02:BE:4C:00:00:01";
  const device = await api("create-device", { device_name: "Bench AP", mac_address: apMac, model_id: "coovachilli" });
  await api("device-assign-location", { location_id: loc.location_id, device_id: device.device_id });
  const slug = (await db.selectFrom("locations").select("portal_slug").where("id", "=", loc.location_id).executeTakeFirstOrThrow()).portal_slug;

  await app.listen({ host: "127.0.0.1", port });
  const base = `http://127.0.0.1:${port}/portal/l/${slug}`;
  const clients: PortalTargetInfo["clients"] = [];
  for (let i = 0; i < CLIENTS; i++) {
    const page = await fetch(coovaPage(base, apMac, `02:C1:00:00:${(i >> 8).toString(16).padStart(2, "0")}:${(i & 255).toString(16).padStart(2, "0")}`));
    const html = await page.text();
    const state = /name="state" value="([^"]+)"/.exec(html)?.[1];
    const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0];
    if (page.status !== 200 || !state || !cookie) throw new Error(`login page answered ${page.status}`);
    clients.push({ cookie, state });
  }
  const info: PortalTargetInfo = { port, pagePath: coovaPage(base, apMac, "02:C1:FF:00:00:01").replace(/^http:\/\/[^/]+/, ""), clients };
  ready(info);
  stopOnSigterm(app, db, schema);
}

if (mode === "bare") await serveBare({ "/portal/l/bare": { body: arg, type: "text/html; charset=utf-8" } });
// The same page after some microseconds of busy work per request (the benchmark's calibration row).
else if (mode === "bare-work") {
  const workUs = Number(process.argv[4]);
  await serveBare({ "/portal/l/bare": { body: arg, type: "text/html; charset=utf-8", workUs } });
}
// The same response, headers included (`arg`: JSON of the body and the headers, as one real page answered).
else if (mode === "bare-response") {
  const { body, headers } = JSON.parse(arg) as { body: string; headers: Record<string, string | string[]> };
  await serveBare({ "/portal/l/bare": { body, type: "text/html; charset=utf-8", headers } });
}
else if (mode === "app") await serveApp(arg);
else if (mode === "app-logged") await serveApp(arg, true);
