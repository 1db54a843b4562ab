/**
 * No input produces a 500 or a half-written record: every API route, read from the OpenAPI document,
 * gets hostile values in each of its parameters, as a form, as JSON and in the query, the other
 * parameters valid (so that the hostile value reaches the services and the database), on every
 * database.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type TestApp, createTestApp, locationParams } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { subUserParams } from "../helpers/sub-users.js";
import { makeCampaign, templateId } from "../modules/campaigns/campaign-fixtures.js";
import { login } from "../modules/guests/guests-fixtures.js";

const HOSTILE: unknown[] = [
  "",
  " ",
  "x".repeat(10_000),
  "'; DROP TABLE locations; --",
  "\" OR 1=1 --",
  "😀🎉👩‍👩‍👧",
  "مرحبا بالعالم",
  "\u202Egnp.exe",
  "\u0000null\u0000byte",
  "9007199254740993",
  "2147483648",
  "2147483647",
  "-1",
  "0",
  "1,,2",
  "1,2,3,4,5,6,7,8,9,10,11",
  "2023-02-30",
  "1e3",
  "0x10",
  "<script>alert(1)</script>",
  "{\"a\":",
];
const JSON_HOSTILE: unknown[] = [null, true, 12.5, 2 ** 60, [], ["1", "2"], { $gt: "" }, { nested: { deep: 1 } }];

interface RouteDoc {
  path: string;
  method: "GET" | "POST";
  params: string[];
}

function routesFrom(openapi: any): RouteDoc[] {
  const out: RouteDoc[] = [];
  for (const [path, item] of Object.entries<any>(openapi.paths)) {
    if (!path.startsWith("/api/")) continue;
    for (const method of ["get", "post"] as const) {
      const op = item[method];
      if (!op) continue;
      const params = new Set<string>();
      for (const p of op.parameters ?? []) params.add(p.name);
      const body = op.requestBody?.content?.["application/json"]?.schema;
      for (const k of Object.keys(body?.properties ?? {})) params.add(k);
      out.push({ path, method: method.toUpperCase() as "GET" | "POST", params: [...params].filter((p) => p !== "identifier") });
    }
  }
  return out;
}

async function tableCounts(t: TestApp): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of ["locations", "campaigns", "devices", "sub_users", "location_options", "guests", "webhooks", "webhook_deliveries", "automations", "messages"] as const) {
    const r = await t.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    out[table] = Number(r.n);
  }
  return out;
}

const strings = (p: Record<string, unknown>) => Object.fromEntries(Object.entries(p).map(([k, v]) => [k, String(v)]));

let macCounter = 0;
const freshMac = () => `0A:${(Date.now() * 100 + ++macCounter).toString(16).slice(-10).padStart(10, "0").match(/../g)!.join(":")}`;

/** Valid parameters of every route, records included, so that each hostile value is the only thing wrong. */
async function validBases(t: TestApp): Promise<Record<string, () => Record<string, unknown>>> {
  const location = (await t.call("POST", "create-or-update-location", locationParams())).body.location_id;
  const campaign = (await makeCampaign(t)).campaign_id;
  const device = (await t.call("POST", "create-device", { device_name: "AP", model_id: "openwrt-generic", mac_address: freshMac() })).body.device_id;
  const mikrotik = (await t.call("POST", "create-device", { device_name: "HotSpot", model_id: "mikrotik-hap-ac2", mac_address: freshMac() })).body.device_id;
  await t.call("POST", "device-assign-location", { location_id: location, device_id: mikrotik });
  const { guestId } = await login(t, { accountId: t.accountId, locationId: location, timezone: "America/Chicago", at: "2026-03-01T12:00:00Z", identity: "g@example.com" });
  const template = await templateId(t, "CustomFormLogin");
  const subUser = (await t.call("POST", "create-sub-user", subUserParams(location))).body.sub_user_id;
  const range = { from_date: "2026-02-01", to_date: "2026-03-01" };
  const controllerParams = { name: "Office UniFi", type: "unifi", url: "https://192.168.1.2:8443", username: "hotspot", password: "secret-pass" };
  const controller = (await t.call("POST", "create-or-update-controller", controllerParams)).body.controller_id;
  // A session as RADIUS accounting writes it (no gateway address known: a disconnect is recorded, nothing sent).
  const session = (
    await t.db
      .insertInto("radius_sessions")
      .values({ device_id: device, guest_id: guestId, location_id: location, acct_session_id: `hostile-${Date.now()}`, username: "", client_mac: "", started_at: "2026-03-01 12:00:00", updated_at: "2026-03-01 12:00:00", stopped_at: null, session_time: 0, input_octets: 0, output_octets: 0, terminate_cause: null, framed_ip: null, nas_ip: null })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  const webhookParams = { url: "https://93.184.215.14/hooks", events: "guest.login,session.stop", location_ids: String(location) };
  const webhook = (await t.call("POST", "create-or-update-webhook", webhookParams)).body.webhook_id;
  const { guestId: erasable } = await login(t, { accountId: t.accountId, locationId: location, timezone: "America/Chicago", at: "2026-03-01T12:00:00Z", identity: "erase@example.com" });
  const batch = (await t.call("POST", "create-voucher-batch", { location_ids: location, count: 2, duration: 60 })).body.batch_id;
  const voucher = (await t.call("GET", "voucher-list", { batch_id: batch })).body.data[0].voucher_id;
  const automationParams = { trigger: "welcome", channel: "email", location_ids: String(location) };
  const automation = (await t.call("POST", "create-or-update-automation", automationParams)).body.automation_id;
  const passpointParams = { location_ids: String(location), ssid: "Cafe Secure", domain: "wifi.cafe.example", realm: "cafe.example", roaming_consortium: "5A03BA0000" };
  const passpoint = (await t.call("POST", "create-or-update-passpoint", passpointParams)).body.passpoint_id;
  return {
    "/api/create-or-update-location": () => locationParams(),
    "/api/get-location": () => ({ location_ids: location }),
    "/api/location-list": () => ({}),
    "/api/delete-location": () => ({ location_id: location }),
    "/api/location-assign-campaign": () => ({ location_id: location, campaign_id: campaign }),
    "/api/device-assign-location": () => ({ location_id: location, device_id: device }),
    "/api/get-location-devices": () => ({ location_id: location }),
    "/api/get-location-options": () => ({ location_id: location }),
    "/api/set-session-and-bandwidth-info": () => ({ location_id: location }),
    "/api/create-or-update-campaign": () => ({ name: "Hostile", template_campaign_id: template }),
    "/api/get-campaign": () => ({ campaign_ids: campaign }),
    "/api/campaign-list": () => ({}),
    "/api/delete-campaign": () => ({ campaign_id: campaign }),
    "/api/social-user-list": () => ({ location_ids: location, ...range }),
    "/api/social-user-export": () => ({ location_ids: location, ...range, format: "csv" }),
    "/api/get-social-user-profile": () => ({ user_ids: guestId }),
    "/api/create-device": () => ({ device_name: "AP", model_id: "openwrt-generic", mac_address: freshMac() }),
    "/api/get-device": () => ({ device_ids: device }),
    "/api/device-list": () => ({}),
    "/api/device-models": () => ({}),
    "/api/device-mikrotik-login-html": () => ({ device_id: mikrotik }),
    "/api/get-device-config": () => ({ device_id: mikrotik }),
    "/api/rotate-device-secret": () => ({ device_id: device }),
    "/api/issue-device-certificate": () => ({ device_id: device }),
    "/api/revoke-device-certificate": () => ({ device_id: device }),
    "/api/device-certificate-list": () => ({ device_id: device }),
    "/api/radsec-ca-certificate": () => ({}),
    "/api/get-social-logins": () => ({ location_id: location, ...range }),
    "/api/get-visits": () => ({ location_id: location, ...range }),
    "/api/session-list": () => ({ location_ids: location, limit: "10" }),
    "/api/disconnect-session": () => ({ session_id: session }),
    "/api/subuser-list": () => ({}),
    "/api/create-sub-user": () => subUserParams(location),
    "/api/update-sub-user": () => ({ sub_user_id: subUser, first_name: "Grace", location_ids: String(location) }),
    "/api/disable-sub-user": () => ({ sub_user_id: subUser }),
    "/api/enable-sub-user": () => ({ sub_user_id: subUser }),
    "/api/delete-sub-user": () => ({ sub_user_id: subUser }),
    "/api/audit-log-list": () => ({ per_page: 10, object: `location_id:${location}` }),
    "/api/set-audit-log-retention": () => ({ retention_days: 90 }),
    "/api/create-or-update-controller": () => controllerParams,
    "/api/controller-list": () => ({}),
    "/api/delete-controller": () => ({ controller_id: controller }),
    "/api/location-assign-controller": () => ({ location_id: location, controller_id: controller }),
    "/api/export-social-user": () => ({ user_id: guestId }),
    "/api/erase-social-user": () => ({ user_id: erasable }),
    "/api/set-account-retention": () => ({ retention_days: "0" }),
    "/api/get-account-retention": () => ({}),
    "/api/test-controller": () => ({ controller_id: controller }),
    "/api/create-or-update-passpoint": () => ({ ...passpointParams, passpoint_id: passpoint }),
    "/api/passpoint-list": () => ({}),
    "/api/delete-passpoint": () => ({ passpoint_id: passpoint }),
    "/api/passpoint-credential-list": () => ({ user_id: guestId }),
    "/api/revoke-passpoint-credential": () => ({ user_id: guestId }),
    "/api/create-or-update-webhook": () => webhookParams,
    "/api/webhook-list": () => ({}),
    "/api/delete-webhook": () => ({ webhook_id: webhook }),
    "/api/webhook-delivery-list": () => ({ webhook_id: webhook }),
    "/api/create-voucher-batch": () => ({ location_ids: location, count: 1, duration: 60 }),
    "/api/voucher-batch-list": () => ({}),
    "/api/voucher-list": () => ({ batch_id: batch }),
    "/api/revoke-voucher": () => ({ voucher_id: voucher }),
    "/api/voucher-sheet": () => ({ batch_id: batch }),
    "/api/create-or-update-automation": () => automationParams,
    "/api/automation-list": () => ({}),
    "/api/delete-automation": () => ({ automation_id: automation }),
    "/api/message-list": () => ({ user_id: guestId, location_id: location, automation_id: automation }),
    "/api/send-test-email": () => ({ to: "ops@example.com" }),
    "/api/get-quick-report": () => ({}),
    "/api/set-quick-report": () => ({ quickreport: "0" }),
    "/api/survey-answer-list": () => ({ user_id: guestId, location_id: location }),
    "/api/survey-scores": () => ({ location_id: location, ...range }),
  };
}

for (const dialect of DIALECTS) {
  describe(`hostile input on every route (${dialect})`, () => {
    let t: TestApp;
    let routes: RouteDoc[];
    before(async () => {
      // E-mail configured (nothing is sent: no worker runs), so that automations and test e-mails can be made.
      t = await createTestApp(dialect, { SMTP_URL: "smtp://127.0.0.1:9", MAIL_FROM: "wifi@example.com", CONTROLLER_ALLOW_PRIVATE: "true" });
      routes = routesFrom((await t.app.inject({ method: "GET", url: "/openapi.json" })).json());
    });
    after(async () => t.close());

    it("documents the API routes", () => {
      assert.ok(routes.length >= 9, `only ${routes.length} routes documented`);
    });

    it("has valid parameters for every route, so that every hostile value reaches the service", async () => {
      const bases = await validBases(t);
      for (const route of routes) {
        assert.ok(bases[route.path], `no valid parameters for ${route.path}: add them to validBases`);
        if (["/api/delete-location", "/api/delete-campaign", "/api/delete-controller", "/api/delete-webhook", "/api/erase-social-user", "/api/delete-automation", "/api/delete-passpoint"].includes(route.path)) continue;
        const res = await t.app.inject({ method: route.method, url: `${route.path}?${new URLSearchParams(strings(bases[route.path]()))}`, headers: { identifier: t.identifier } });
        assert.equal(res.statusCode, 200, `${route.method} ${route.path}: ${res.body.slice(0, 300)}`);
      }
    });

    it("answers 200 or 400 in the error shape, never 500, and writes nothing on 400", async () => {
      const bases = await validBases(t);
      for (const route of routes) {
        for (const param of route.params) {
          for (const value of [...HOSTILE, ...(route.method === "POST" ? JSON_HOSTILE : [])]) {
            const asJson = route.method === "POST" && (typeof value !== "string" || value.length % 2 === 0);
            const params = { ...bases[route.path](), [param]: value };
            const before = await tableCounts(t);
            const res = await t.app.inject({
              method: route.method,
              url: route.method === "GET" ? `${route.path}?${new URLSearchParams(strings(params))}` : route.path,
              headers: { identifier: t.identifier, ...(route.method === "POST" && !asJson ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
              payload:
                route.method === "POST"
                  ? asJson
                    ? JSON.stringify(params)
                    : new URLSearchParams(strings(params)).toString()
                  : undefined,
              ...(asJson ? { headers: { identifier: t.identifier, "content-type": "application/json" } } : {}),
            });
            const where = `${route.method} ${route.path} ${param}=${JSON.stringify(value).slice(0, 40)}`;
            assert.ok(res.statusCode === 200 || res.statusCode === 400, `${where} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
            // The export answers a CSV file (its first line the header) when it succeeds.
            if (res.statusCode === 200 && String(res.headers["content-type"]).startsWith("text/csv")) {
              assert.ok(res.body.startsWith("social_user_id,"), where);
              continue;
            }
            // MikroTik's login.html is a file too.
            if (res.statusCode === 200 && String(res.headers["content-type"]).startsWith("text/html")) {
              assert.ok(res.body.includes("$(link-login-only)"), where);
              continue;
            }
            const body = res.json();
            if (res.statusCode === 400) {
              assert.equal(body.status, "error", where);
              assert.equal(typeof body.message, "object", where);
              assert.deepEqual(await tableCounts(t), before, `${where} wrote something`);
            } else {
              assert.equal(body.status, "success", where);
            }
          }
        }
      }
    });

    it("refuses a body over the limit and a wrong content type", async () => {
      const big = await t.app.inject({
        method: "POST",
        url: "/api/create-or-update-location",
        headers: { identifier: t.identifier, "content-type": "application/json" },
        payload: JSON.stringify({ location_name: "x".repeat(t.config.bodyLimit + 10) }),
      });
      assert.equal(big.statusCode, 413);
      assert.equal(big.json().status, "error");
      const xml = await t.app.inject({
        method: "POST",
        url: "/api/create-or-update-location",
        headers: { identifier: t.identifier, "content-type": "application/xml" },
        payload: "<location/>",
      });
      assert.equal(xml.statusCode, 400);
      assert.match(xml.json().message.body[0], /content type/);
    });

    it("keeps emoji, right-to-left text and SQL metacharacters as text", async () => {
      const name = "Café 😀 مقهى '; DROP TABLE x; --";
      const res = await t.call("POST", "create-or-update-location", locationParams({ location_name: name }), { as: "json" });
      assert.equal(res.statusCode, 200);
      const read = await t.call("GET", "get-location", { location_ids: String(res.body.location_id) });
      assert.equal(read.body.data[0].name, name);
    });

    it("refuses NUL bytes in otherwise valid text instead of failing in the database", async () => {
      const res = await t.call("POST", "create-or-update-location", locationParams({ location_name: "a\u0000b" }), { as: "json" });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.body.message, { location_name: ["The location_name format is invalid."] });
    });

    it("refuses ids above 2^53 and integers written as floats or hex", async () => {
      for (const v of ["9007199254740993", "1.5", "0x10", "1e3"]) {
        const res = await t.call("POST", "delete-location", { location_id: v });
        assert.equal(res.statusCode, 400, v);
        assert.ok(res.body.message.location_id, v);
      }
    });
  });
}
