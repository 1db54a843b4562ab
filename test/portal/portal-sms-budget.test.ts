/**
 * The daily SMS budget of a location: counted from the codes recorded in the database, so it holds
 * across restarts and concurrent requests; past it nothing is sent until the location's midnight.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { buildApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { toDbDatetime } from "../../src/db/time.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { PortalClient, type World, countLogins, makeWorld, merakiUrl, stateOf } from "./portal-world.js";
import { type TwilioStandIn, startTwilioStandIn } from "./stand-ins.js";

const GRANT = "https://n9.network-auth.com/splash/grant";

/** Seconds from now to the next midnight in `timeZone`, by the wall clock. */
function secondsToMidnight(timeZone: string): number {
  const f = new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
  const [h, m, s] = f.format(new Date()).split(":").map(Number);
  return 86_400 - (h * 3600 + m * 60 + s);
}

for (const dialect of DIALECTS) {
  describe(`portal SMS budget per location (${dialect})`, () => {
    let twilio: TwilioStandIn;
    let t: TestApp;
    const env = () => ({
      PORTAL_SECRET: "portal-secret-for-tests",
      PORTAL_SMS_RATE_LIMIT_PER_MINUTE: "1000",
      SMS_DAILY_BUDGET_PER_LOCATION: "3",
      TWILIO_API_BASE_URL: twilio.url,
      TWILIO_ACCOUNT_SID: "AC0123456789abcdef0123456789abcdef",
      TWILIO_AUTH_TOKEN: "twilio-token",
      TWILIO_FROM: "+15005550006",
    });
    before(async () => {
      twilio = await startTwilioStandIn();
      t = await createTestApp(dialect, env());
    });
    after(async () => {
      await t.close();
      await twilio.close();
    });

    let guest = 0;
    /** A new guest (own address, own MAC) asking for a code at `w`, through `app`. */
    async function ask(w: World, phone: string, app = t.app) {
      const n = ++guest;
      const client = new PortalClient(app, undefined, `192.0.2.${n}`);
      const mac = `02:dd:00:00:00:${n.toString(16).padStart(2, "0")}`;
      const page = await client.get(merakiUrl(w.path, { grant: GRANT, node: w.apMac, client: mac }));
      const res = await client.post("/portal/login/sms", { state: stateOf(page.body), phone });
      return { client, res };
    }

    it("refuses the SMS method past the budget for the rest of the local day, sending nothing more", async () => {
      const w = await makeWorld(t, { login_options: JSON.stringify({ sms: 1 }) });
      const first = await ask(w, "+447700903001");
      assert.equal(first.res.statusCode, 200);
      for (const phone of ["+447700903002", "+447700903003"]) assert.equal((await ask(w, phone)).res.statusCode, 200);
      const sentBefore = twilio.requests.length;

      const over = await ask(w, "+447700903004");
      assert.equal(over.res.statusCode, 429);
      assert.match(over.res.body, /Text-message login is not available at this location for the rest of today\. Please choose another login method\./);
      const wait = Number(over.res.headers["retry-after"]);
      const expected = secondsToMidnight("Europe/Berlin");
      // Within a few seconds of the location's midnight (an hour either way on a day the clocks change).
      assert.ok(Math.abs(wait - expected) <= 5 || Math.abs(Math.abs(wait - expected) - 3600) <= 5, `Retry-After ${wait}, midnight in ${expected}`);
      const resend = await first.client.post("/portal/login/sms/resend", { state: stateOf(first.res.body) });
      assert.equal(resend.statusCode, 429, "a resend is a send");
      assert.equal(twilio.requests.length, sentBefore, "nothing more reached Twilio");
      assert.equal(await t.db.selectFrom("sms_codes").select("id").where("location_id", "=", w.locationId).execute().then((r) => r.length), 3);

      // A code already sent still logs its guest in: that text is paid for.
      const done = await first.client.post("/portal/login/sms/verify", { state: stateOf(first.res.body), code: twilio.lastCode("+447700903001") });
      assert.equal(done.statusCode, 303, done.body);
      assert.equal((await countLogins(t, w.locationId)).length, 1);

      // Another location has its own budget.
      const other = await makeWorld(t, { login_options: JSON.stringify({ sms: 1 }) });
      assert.equal((await ask(other, "+447700903005")).res.statusCode, 200);

      // A restarted service (a new app on the same database) counts the same sends.
      const config = loadConfig({ LOG_LEVEL: "silent", PUBLIC_URL: "http://portal.test", RADIUS_ENABLED: "false", ...env() });
      const restarted = await buildApp({ config, db: t.db, logger: false });
      try {
        assert.equal((await ask(w, "+447700903006", restarted)).res.statusCode, 429);
        // Sends of an earlier local day do not count.
        await t.db
          .updateTable("sms_codes")
          .set({ created_at: toDbDatetime(new Date(Date.now() - 26 * 3600_000)) })
          .where("location_id", "=", w.locationId)
          .execute();
        assert.equal((await ask(w, "+447700903007", restarted)).res.statusCode, 200);
      } finally {
        await restarted.close();
      }
    });

    it("holds exactly under concurrent requests", async () => {
      const w = await makeWorld(t, { login_options: JSON.stringify({ sms: 1 }) });
      const pages = [];
      for (let i = 0; i < 12; i++) {
        const n = ++guest;
        const client = new PortalClient(t.app, undefined, `198.51.100.${n}`);
        const page = await client.get(merakiUrl(w.path, { grant: GRANT, node: w.apMac, client: `02:de:00:00:00:${n.toString(16).padStart(2, "0")}` }));
        pages.push({ client, state: stateOf(page.body), phone: `+4477009040${String(i).padStart(2, "0")}` });
      }
      const before = twilio.requests.length;
      const answers = await Promise.all(pages.map((p) => p.client.post("/portal/login/sms", { state: p.state, phone: p.phone })));
      assert.equal(answers.filter((r) => r.statusCode === 200).length, 3);
      assert.equal(answers.filter((r) => r.statusCode === 429).length, 9);
      assert.equal(twilio.requests.length - before, 3);
    });

    it("does not count a text that Twilio refused, and counts one that may have gone out", async () => {
      const w = await makeWorld(t, { login_options: JSON.stringify({ sms: 1 }) });
      twilio.failNext(400);
      assert.equal((await ask(w, "+447700905001")).res.statusCode, 502);
      twilio.dropNext();
      assert.equal((await ask(w, "+447700905002")).res.statusCode, 502, "no answer from Twilio");
      for (const phone of ["+447700905003", "+447700905004"]) assert.equal((await ask(w, phone)).res.statusCode, 200);
      assert.equal((await ask(w, "+447700905005")).res.statusCode, 429, "the dropped send took the third place");
      const kept = await t.db.selectFrom("sms_codes").select("phone_number").where("location_id", "=", w.locationId).orderBy("id").execute();
      assert.deepEqual(kept.map((r) => r.phone_number), ["+447700905002", "+447700905003", "+447700905004"]);
    });
  });
}
