/**
 * No secret in any log line at any level: the real service (startService: HTTP, portal, RADIUS)
 * logs at trace into memory while it is used with every kind of secret it handles (identifiers in
 * every place, a password in a query string, RADIUS secrets, a gateway credential, an SMS code,
 * OAuth codes and tokens, its own configured secrets); then the log is searched for each value.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { linkKey, signToken } from "../../src/modules/messages/message-tokens.js";
import { loadConfig } from "../../src/config.js";
import { type RunningService, startService } from "../../src/server.js";
import { type TestApp, locationParams, testAppOf } from "../helpers/app.js";
import { DIALECTS, type TestDb, createTestDb } from "../helpers/db.js";
import { subUserParams } from "../helpers/sub-users.js";
import { type OAuthMock, approveAtProvider, startOAuthMock } from "../portal/oauth-mock.js";
import { PortalClient, coovaUrl, makeWorld, merakiUrl, stateOf } from "../portal/portal-world.js";
import { type TwilioStandIn, startTwilioStandIn } from "../portal/stand-ins.js";
import { makeCertificate, startUnifiController } from "../portal/controller-stand-ins.js";
import { controllerWorld, unifiUrl } from "../portal/controller-world.js";
import { radclient } from "../radius/radclient.js";
import { countsAt, radclientCounted } from "../radius/radius-counts.js";

const UAM_SECRET = "uam-secret-never-logged";
const CONFIGURED = {
  PORTAL_SECRET: "portal-secret-never-logged",
  COOVA_UAM_SECRET: UAM_SECRET,
  TWILIO_ACCOUNT_SID: "AC0123456789abcdef0123456789abcdef",
  TWILIO_AUTH_TOKEN: "twilio-token-never-logged",
  TWILIO_FROM: "+15005550006",
  METRICS_TOKEN: "metrics-token-never-logged",
  // Nothing listens there: sending fails, as it must without leaking the password.
  SMTP_URL: "smtp://mailer:smtp-secret-never-logged@127.0.0.1:9",
  MAIL_FROM: "wifi@example.com",
};

for (const dialect of DIALECTS) {
  describe(`secrets never reach the log (${dialect}, LOG_LEVEL=trace)`, () => {
    let tdb: TestDb;
    let service: RunningService;
    let t: TestApp;
    let twilio: TwilioStandIn;
    let oauth: OAuthMock;
    const lines: string[] = [];
    const secrets = new Map<string, string>();
    const issuedTokens: string[] = [];
    let base: string;

    before(async () => {
      twilio = await startTwilioStandIn();
      oauth = await startOAuthMock();
      oauth.server.service.on("beforeResponse", (res: { body: Record<string, unknown> }) => {
        for (const k of ["access_token", "id_token", "refresh_token"]) if (typeof res.body[k] === "string") issuedTokens.push(res.body[k] as string);
      });
      tdb = await createTestDb(dialect);
      const databaseUrl = dialect === "postgres" ? `${tdb.url}?options=${encodeURIComponent(`-c search_path=${tdb.schema}`)}` : tdb.url;
      const config = loadConfig({
        DATABASE_URL: databaseUrl, HOST: "127.0.0.1", PORT: "0", PUBLIC_URL: "http://portal.test",
        RADIUS_HOST: "127.0.0.1", RADIUS_AUTH_PORT: "0", RADIUS_ACCT_PORT: "0", LOG_LEVEL: "trace",
        PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "1000", CONTROLLER_ALLOW_PRIVATE: "true", TWILIO_API_BASE_URL: twilio.url, ...CONFIGURED, ...oauth.env,
      });
      service = await startService(config, { logger: { level: "trace", stream: { write: (line: string) => void lines.push(line) } } });
      base = `http://127.0.0.1:${service.httpPort}`;
      t = await testAppOf({ ...tdb, db: service.db }, service.app, config);
      for (const [k, v] of Object.entries({ ...CONFIGURED, ...oauth.env })) if (/SECRET|TOKEN/.test(k)) secrets.set(k, v);
      secrets.set("SMTP password", "smtp-secret-never-logged");
      secrets.set("account identifier", t.identifier);
    });
    after(async () => {
      await service?.stop();
      await tdb?.close();
      await twilio?.close();
      await oauth?.server.stop();
    });

    it("API: identifier in query, form, JSON, header and Bearer; a password in a query string; RADIUS secrets in answers", async () => {
      const id = t.identifier;
      const q = (path: string, params: Record<string, string>) => `${base}/api/${path}?${new URLSearchParams(params)}`;
      const form = { "content-type": "application/x-www-form-urlencoded" };
      const json = { "content-type": "application/json" };
      const responses = await Promise.all([
        fetch(q("location-list", { identifier: id })),
        fetch(`${base}/api/create-or-update-location`, { method: "POST", headers: form, body: new URLSearchParams({ identifier: id, ...(locationParams() as Record<string, string>) }) }),
        fetch(`${base}/api/create-or-update-location`, { method: "POST", headers: json, body: JSON.stringify({ identifier: id, ...locationParams() }) }),
        fetch(`${base}/api/location-list`, { headers: { identifier: id } }),
        fetch(`${base}/api/location-list`, { headers: { authorization: `Bearer ${id}` } }),
        // Failures log more: a broken JSON body around the identifier, unknown routes, wrong methods.
        fetch(`${base}/api/create-or-update-location`, { method: "POST", headers: json, body: `{"identifier":"${id}", "location_name": ` }),
        fetch(q("no-such-route", { identifier: id })),
        fetch(q("delete-location", { identifier: id, location_id: "1" }), { method: "PUT" }),
        fetch(q("location-list", { identifier: `${id}x` })),
        fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${CONFIGURED.METRICS_TOKEN}` } }),
        fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${CONFIGURED.METRICS_TOKEN}-wrong` } }),
      ]);
      assert.deepEqual(responses.map((r) => r.status), [200, 200, 200, 200, 200, 400, 404, 405, 400, 200, 401]);
      const locationId = ((await responses[1].json()) as { location_id: number }).location_id;

      const password = "Sub-user pass 9f8e7d!";
      secrets.set("sub-user password", password);
      const sub = await fetch(q("create-sub-user", { identifier: id, ...(subUserParams(locationId, { password }) as Record<string, string>) }));
      const subBody = (await sub.json()) as { identifier: string };
      assert.equal(sub.status, 200, JSON.stringify(subBody));
      secrets.set("sub-user identifier", subBody.identifier);
      assert.equal((await fetch(`${base}/api/location-list`, { headers: { authorization: `Bearer ${subBody.identifier}` } })).status, 200);

      const w = await makeWorld(t, { redirect_url: "" });
      const device = await fetch(q("get-device", { identifier: id, device_ids: String(w.deviceId) }));
      const secret = ((await device.json()) as { data: { radius_secret: string }[] }).data[0].radius_secret;
      assert.ok(secret.length >= 16);
      secrets.set("radius secret", secret);
    });

    it("portal: a gateway credential (and its use over RADIUS), an SMS code, an OAuth code and token", async () => {
      // CoovaChilli: the portal issues a one-time credential, the gateway logs the guest in with it.
      const w = await makeWorld(t, { redirect_url: "", login_options: JSON.stringify({ custom: 1, sms: 1, facebook: 1 }) });
      const apSecret = (await t.db.selectFrom("devices").select("radius_secret").where("id", "=", w.deviceId).executeTakeFirstOrThrow()).radius_secret;
      secrets.set("access point secret", apSecret);
      const guestMac = "0A:1B:2C:3D:4E:5F";
      const challenge = "00112233445566778899aabbccddeeff";
      const client = new PortalClient(t.app);
      const page = await client.get(coovaUrl(w.url, { called: w.apMac, mac: guestMac, challenge }, UAM_SECRET));
      const res = await client.post("/portal/login/custom", { state: stateOf(page.body), name: "Ann Example", email: "ann@example.com" });
      assert.equal(res.statusCode, 303, res.body);
      const logon = new URL(res.location!);
      const username = logon.searchParams.get("username")!;
      const cred = await t.db.selectFrom("portal_credentials").selectAll().where("username", "=", username).executeTakeFirstOrThrow();
      secrets.set("credential password", cred.password);
      secrets.set("credential password as sent to the gateway", logon.searchParams.get("password")!);
      secrets.set("credential username", username);
      const dashed = (m: string) => m.replaceAll(":", "-");
      const accept = await radclient(service.radius!.authPort, "auth", apSecret, [
        `User-Name = "${username}"`,
        `User-Password = "${cred.password}"`,
        `Called-Station-Id = "${dashed(w.apMac)}"`,
        `Calling-Station-Id = "${dashed(guestMac)}"`,
        "Message-Authenticator = 0x00",
      ]);
      assert.equal(accept.code, "Access-Accept", accept.output);
      const counts = countsAt(`${base}/metrics`, { authorization: `Bearer ${CONFIGURED.METRICS_TOKEN}` });
      const wrongSecret = await radclientCounted(counts, service.radius!.authPort, "auth", "not-the-secret", [`User-Name = "${username}"`, `Called-Station-Id = "${dashed(w.apMac)}"`, "Message-Authenticator = 0x00"]);
      assert.deepEqual([wrongSecret.code, wrongSecret.counted], [undefined, { drop: 1, error: 0, other: 0 }], "dropped, as the service counts it");
      const acct = await radclient(service.radius!.acctPort, "acct", apSecret, ["Acct-Status-Type = Start", 'Acct-Session-Id = "log-1"', `User-Name = "${username}"`, `Called-Station-Id = "${dashed(w.apMac)}"`]);
      assert.equal(acct.code, "Accounting-Response", acct.output);

      // SMS through the local Twilio stand-in.
      const sms = new PortalClient(t.app);
      const smsPage = await sms.get(merakiUrl(w.path, { grant: "https://n7.network-auth.com/splash/grant", node: w.apMac, client: "02:bb:00:00:00:01" }));
      const sent = await sms.post("/portal/login/sms", { state: stateOf(smsPage.body), phone: "+447700900123" });
      assert.equal(sent.statusCode, 200, sent.body);
      const code = twilio.lastCode("+447700900123");
      secrets.set("sms code", code);
      const wrong = code === "000000" ? "111111" : "000000";
      await sms.post("/portal/login/sms/verify", { state: stateOf(sent.body), code: wrong });
      const verified = await sms.post("/portal/login/sms/verify", { state: stateOf(sent.body), code });
      assert.equal(verified.statusCode, 303, verified.body);

      // OAuth against oauth2-mock-server; the callback goes over real HTTP so Node's own path logs it.
      const social = new PortalClient(t.app);
      const socialPage = await social.get(coovaUrl(w.url, { called: w.apMac, mac: "02:cc:00:00:00:01" }, UAM_SECRET));
      const started = await social.post("/portal/login/oauth/facebook", { state: stateOf(socialPage.body) });
      assert.equal(started.statusCode, 303, started.body);
      const back = new URL(await approveAtProvider(started.location!));
      secrets.set("oauth code", back.searchParams.get("code")!);
      const done = await fetch(`${base}${back.pathname}${back.search}`, {
        redirect: "manual",
        headers: { accept: "text/html", cookie: [...social.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
      });
      assert.equal(done.status, 303, await done.text());
      assert.ok(issuedTokens.length > 0, "the provider issued tokens");
      for (const [i, tok] of issuedTokens.entries()) secrets.set(`oauth token ${i}`, tok);
    });

    it("controllers: credentials given to the API, used to let a guest in, and refused", async () => {
      const cert = makeCertificate();
      const password = "Controller pass 7c6b5a!";
      const apiKey = "unifi-api-key-never-logged-0123";
      const unifi = await startUnifiController(cert, { flavour: "os", username: "portal", password, site: "default", apiKey });
      try {
        secrets.set("controller password", password);
        secrets.set("controller api key", apiKey);
        const byQuery = await fetch(
          `${base}/api/create-or-update-controller?${new URLSearchParams({ identifier: t.identifier, name: "Q", type: "unifi", url: unifi.url, username: "portal", password })}`,
          { method: "POST" },
        );
        assert.equal(byQuery.status, 200, await byQuery.text());
        const w = await controllerWorld(t, "ubiquiti-u6-lite", { type: "unifi", url: unifi.url, username: "portal", password, tls_fingerprint: cert.fingerprint }, { redirect_url: "" });
        const k = await controllerWorld(t, "ubiquiti-u6-lite", { type: "unifi", url: unifi.url, api_key: apiKey, tls_fingerprint: cert.fingerprint }, { redirect_url: "" });
        const wrong = await controllerWorld(t, "ubiquiti-u6-lite", { type: "unifi", url: unifi.url, username: "portal", password: `${password}-old`, tls_fingerprint: cert.fingerprint }, { redirect_url: "" });
        secrets.set("outdated controller password", `${password}-old`);
        for (const [world, status] of [[w, 200], [k, 200], [wrong, 502]] as const) {
          const client = new PortalClient(t.app);
          const page = await client.get(unifiUrl("", { ap: world.apMac, client: "02:dd:00:00:00:01" }));
          const res = await client.post("/portal/login/clickthrough", { state: stateOf(page.body), accept_terms: "1" });
          assert.equal(res.statusCode, status, res.body);
        }
        const key = await t.db.selectFrom("service_secrets").select("value").where("name", "=", "secret-box-key").executeTakeFirstOrThrow();
        secrets.set("secret box key", key.value);
        for (const c of unifi.calls) if (typeof c.headers["x-csrf-token"] === "string") secrets.set(`controller csrf ${c.headers["x-csrf-token"]}`, c.headers["x-csrf-token"]);
      } finally {
        await unifi.close();
      }
    });

    it("messages: an unsubscribe and a survey link's tokens, a test e-mail through an SMTP server with a password", async () => {
      const sent = await t.call("POST", "send-test-email", { to: "ops@example.net" });
      assert.equal(sent.statusCode, 200, JSON.stringify(sent.body));
      const key = await linkKey(service.db);
      for (const purpose of ["u", "s"] as const) {
        const token = signToken(key, purpose, sent.body.message_id);
        secrets.set(`${purpose} link token`, token);
        const path = purpose === "u" ? "unsubscribe" : "survey";
        await fetch(`${base}/${path}/${token}?score=5`);
        await fetch(`${base}/${path}/${token}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" });
      }
    });

    it("the log, at trace, names none of them", async () => {
      // Waits on events, not a pause: the test e-mail's first attempt (to a closed port) is recorded
      // after its log lines, and a last request's line is written after every earlier answer's.
      const deadline = Date.now() + 30_000;
      const attempted = async () => {
        const r = await t.call("GET", "message-list", { kind: "test" });
        return (r.body.data as { attempt_log: unknown[] }[]).some((m) => m.attempt_log.length > 0);
      };
      while (!(await attempted())) {
        assert.ok(Date.now() < deadline, "the test e-mail was not attempted within 30 s");
        await new Promise((r) => setTimeout(r, 20));
      }
      const marker = `/log-marker-${Date.now()}`;
      assert.equal((await fetch(`${base}${marker}`)).status, 404);
      while (!lines.some((l) => l.includes(marker) && l.includes('"msg":"request completed"'))) {
        assert.ok(Date.now() < deadline, "the marker request's line was not written within 30 s");
        await new Promise((r) => setTimeout(r, 5));
      }
      const log = lines.join("");
      assert.ok(lines.length > 50, `the service logged (${lines.length} lines)`);
      assert.equal(service.app.log.level, "trace");
      assert.ok(log.includes('"msg":"radius access"'), "RADIUS logged its debug lines too");
      assert.ok(log.includes("/portal/oauth/callback/"), "the OAuth callback was logged");
      const leaks: string[] = [];
      for (const [what, value] of secrets) {
        const forms = new Set([value, encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2), JSON.stringify(value).slice(1, -1)]);
        // A 6-digit code can occur inside longer numbers (timestamps); only a standalone one counts.
        const found = /^\d{6}$/.test(value) ? new RegExp(`(?<![0-9.])${value}(?![0-9])`).test(log) : [...forms].some((f) => log.includes(f));
        if (found) leaks.push(`${what}: ${lines.find((l) => [...forms].some((f) => l.includes(f)))?.slice(0, 400)}`);
      }
      assert.deepEqual(leaks, [], `secrets in the log:\n${leaks.join("\n")}`);
    });
  });
}
