/**
 * `kill -9` under concurrent write load loses no acknowledged write, on SQLite and PostgreSQL.
 *
 * The real service runs in its own process. Loops write through every door at once: API writes
 * (create-or-update-location), portal logins (a CoovaChilli redirect, the page, the custom form),
 * and RADIUS accounting (Start, then an Interim-Update with counters). Each loop records what was
 * acknowledged (HTTP 200 / 303, an Accounting-Response). Then the process is killed with SIGKILL
 * while requests are in flight (once every door has acknowledged some), the database is opened afresh, and every acknowledged write must be
 * there. The service then starts again on the same database and serves.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, describe, it } from "node:test";
import { type CliDatabase, cliDatabase } from "../cli/cli-db.js";
import { locationParams } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { type ServiceProcess, startServiceProcess } from "../helpers/service-process.js";
import { rawExchange } from "../radius/radclient.js";
import { accountingRequestBytes } from "../radius/raw-packets.js";
import { apiPost, probe } from "./service-probes.js";

/**
 * The loops write until every door has had this many acknowledgements (within the deadline: on a
 * loaded machine that takes longer than on a quiet one), then the kill comes while they still write.
 */
const MIN_ACKS = 10;
const LOAD_DEADLINE_MS = 120_000;
/** Accounting loops side by side: enough that the group commit writes several packets per transaction. */
const RADIUS_LOOPS = 8;

const randomMac = () =>
  Array.from(randomBytes(6), (b, i) => (i === 0 ? (b | 0x02) & 0xfe : b).toString(16).padStart(2, "0")).join(":").toUpperCase();

/** A portal client over real HTTP: keeps the portal's cookies between the page and the form. */
async function portalLogin(svc: ServiceProcess, portalUrl: string, apMac: string, email: string): Promise<boolean> {
  const dashed = (m: string) => m.replaceAll(":", "-");
  const q = new URLSearchParams({
    res: "notyet",
    uamip: "10.1.0.1",
    uamport: "3990",
    challenge: randomBytes(16).toString("hex"),
    called: dashed(apMac),
    mac: dashed(randomMac()),
    ip: "10.1.0.7",
    nasid: "kill-ap",
  });
  const page = await fetch(`${portalUrl}?${q}`, { headers: { accept: "text/html" }, redirect: "manual", signal: AbortSignal.timeout(10_000) });
  const html = await page.text();
  if (page.status !== 200) return false;
  const state = /name="state" value="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, "&");
  if (!state) return false;
  const cookie = page.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const res = await fetch(`${svc.httpUrl}/portal/login/custom`, {
    method: "POST",
    headers: { accept: "text/html", "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams({ state, name: "Kill Test", email }).toString(),
    redirect: "manual",
    signal: AbortSignal.timeout(10_000),
  });
  await res.text();
  return res.status === 303;
}

for (const dialect of DIALECTS) {
  describe(`kill -9 under write load (${dialect})`, () => {
    let svc: ServiceProcess | undefined;
    let again: ServiceProcess | undefined;
    let t: CliDatabase | undefined;
    after(async () => {
      svc?.child.kill("SIGKILL");
      await again?.stop();
      await t?.close();
    });

    it("keeps every acknowledged API write, portal login and accounting packet", { timeout: 300_000 }, async () => {
      t = await cliDatabase(dialect);
      const env = {
        DATABASE_URL: t.url,
        LOG_LEVEL: "warn",
        API_RATE_LIMIT_PER_MINUTE: "0",
        PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "0",
        PORTAL_SECRET: "kill-test-portal-secret",
      };
      svc = await startServiceProcess(env);
      const s = svc;

      // A venue: location, campaign with the custom form, a CoovaChilli access point.
      const loc = await apiPost(s, "create-or-update-location", locationParams({ location_name: "Kill Cafe" }) as Record<string, string>);
      assert.equal(loc.status, 200, JSON.stringify(loc.body));
      const locationId = String(loc.body.location_id);
      const camp = await apiPost(s, "create-or-update-campaign", {
        template_campaign_id: "1",
        name: "Kill",
        login_options: JSON.stringify({ custom: 1 }),
        redirect_url: "",
      });
      assert.equal(camp.status, 200, JSON.stringify(camp.body));
      assert.equal((await apiPost(s, "location-assign-campaign", { location_id: locationId, campaign_id: String(camp.body.campaign_id) })).status, 200);
      const apMac = randomMac();
      const dev = await apiPost(s, "create-device", { device_name: "Kill AP", mac_address: apMac, model_id: "coovachilli" });
      assert.equal(dev.status, 200, JSON.stringify(dev.body));
      assert.equal((await apiPost(s, "device-assign-location", { location_id: locationId, device_id: String(dev.body.device_id) })).status, 200);
      const secret = dev.body.data?.radius_secret ?? dev.body.radius_secret;
      assert.equal(typeof secret, "string", JSON.stringify(dev.body));
      const read = await probe(`${s.httpUrl}/api/get-location?location_ids=${locationId}`, { headers: { identifier: s.identifier } });
      const portalUrl = `${s.httpUrl}${new URL(read.body.data[0].url).pathname}`;

      const acked = { locations: [] as string[], logins: [] as string[], sessions: [] as { id: string; input: number }[] };
      let writing = true;
      const tag = randomBytes(3).toString("hex");
      let seq = 0;

      const apiLoop = async () => {
        while (writing) {
          const name = `Kill ${tag} ${++seq}`;
          const r = await apiPost(s, "create-or-update-location", locationParams({ location_name: name }) as Record<string, string>, 10_000);
          if (r.status === 200) acked.locations.push(name);
        }
      };
      const portalLoop = async () => {
        while (writing) {
          const email = `kill-${tag}-${++seq}@example.com`;
          if (await portalLogin(s, portalUrl, apMac, email).catch(() => false)) acked.logins.push(email);
        }
      };
      const radiusLoop = async () => {
        while (writing) {
          const id = `kill-${tag}-${++seq}`;
          const client = randomMac().replaceAll(":", "-");
          const common: [string, string | number][] = [
            ["Acct-Session-Id", id],
            ["User-Name", client],
            ["Calling-Station-Id", client],
            ["Called-Station-Id", `${apMac.replaceAll(":", "-")}:KillWiFi`],
          ];
          const start = accountingRequestBytes(secret, seq % 256, [["Acct-Status-Type", "Start"], ...common]);
          if ((await rawExchange(s.acctPort, [start], 1, 3000)).length !== 1) continue;
          const entry = { id, input: 0 };
          acked.sessions.push(entry);
          const input = 1000 + (seq % 5000);
          const interim = accountingRequestBytes(secret, (seq + 1) % 256, [
            ["Acct-Status-Type", "Interim-Update"],
            ...common,
            ["Acct-Session-Time", 60],
            ["Acct-Input-Octets", input],
          ]);
          if ((await rawExchange(s.acctPort, [interim], 1, 3000)).length === 1) entry.input = input;
        }
      };

      const loops = [apiLoop(), apiLoop(), apiLoop(), portalLoop(), portalLoop(), ...Array.from({ length: RADIUS_LOOPS }, radiusLoop)];
      const enough = () => Math.min(acked.locations.length, acked.logins.length, acked.sessions.length) >= MIN_ACKS;
      const deadline = Date.now() + LOAD_DEADLINE_MS;
      while (!enough() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      // Killed mid-flight: the loops are still sending.
      s.child.kill("SIGKILL");
      writing = false;
      await Promise.allSettled(loops);
      await new Promise<void>((resolve) => (s.exited() !== undefined ? resolve() : s.child.once("exit", () => resolve())));
      assert.equal(s.exited(), "SIGKILL");
      console.log(
        `${dialect}: acknowledged before the kill: ${acked.locations.length} API writes, ${acked.logins.length} portal logins, ${acked.sessions.length} accounting sessions`,
      );
      for (const [what, n] of [
        ["API writes", acked.locations.length],
        ["portal logins", acked.logins.length],
        ["accounting sessions", acked.sessions.length],
      ] as const) {
        assert.ok(n >= MIN_ACKS, `only ${n} ${what} acknowledged: the load did not exercise the service`);
      }

      // A connection of the test's own, opened after the kill.
      const db = t.db();
      const names = new Set((await db.selectFrom("locations").select("name").execute()).map((r) => r.name));
      const lostLocations = acked.locations.filter((n) => !names.has(n));
      assert.deepEqual(lostLocations, [], "every acknowledged create-or-update-location is stored");

      const guests = new Set(
        (
          await db
            .selectFrom("logins")
            .innerJoin("guests", "guests.id", "logins.guest_id")
            .select("guests.email")
            .where("logins.location_id", "=", Number(locationId))
            .execute()
        ).map((r) => String(r.email).toLowerCase()),
      );
      const lostLogins = acked.logins.filter((e) => !guests.has(e));
      assert.deepEqual(lostLogins, [], "every acknowledged portal login is stored with its guest");

      const sessions = new Map(
        (await db.selectFrom("radius_sessions").select(["acct_session_id", "input_octets"]).execute()).map((r) => [r.acct_session_id, Number(r.input_octets)]),
      );
      const lostSessions = acked.sessions.filter((x) => !sessions.has(x.id));
      assert.deepEqual(lostSessions, [], "every acknowledged Accounting-Request Start is stored");
      const lostCounters = acked.sessions.filter((x) => (sessions.get(x.id) ?? 0) < x.input);
      assert.deepEqual(lostCounters, [], "every acknowledged Interim-Update's counters are stored");

      // And the service starts again on the same database and serves.
      again = await startServiceProcess(env, undefined, { firstStart: false });
      const list = await probe(`${again.httpUrl}/api/location-list`, { headers: { identifier: s.identifier } });
      assert.equal(list.status, 200, JSON.stringify(list.body));
    });
  });
}
