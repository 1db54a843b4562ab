/**
 * Consent at login: the terms box a campaign requires, the unticked marketing opt-in, what each
 * login records (accepted, when, text versions) on both recordLogin paths, the guest's latest
 * marketing choice, and what the profile API and the CSV export show.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { textVersion } from "../../src/portal/portal-login.service.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { PortalClient, type World, coovaUrl, makeWorld, randomMac, stateOf } from "./portal-world.js";

const UAM_SECRET = "consent-uam-secret";
const TERMS = "<p>Be <strong>nice</strong>.</p>";
const MARKETING = "Send me the weekly menu by e-mail.";

for (const dialect of DIALECTS) {
  describe(`consent at login (${dialect})`, () => {
    let t: TestApp;
    let asking: World;
    let silent: World;

    before(async () => {
      t = await createTestApp(dialect, { PORTAL_SECRET: "consent-portal-secret", COOVA_UAM_SECRET: UAM_SECRET });
      asking = await makeWorld(t, { custom_terms: TERMS, terms_required: "1", marketing_opt_in: "1", marketing_text: MARKETING });
      silent = await makeWorld(t, { custom_terms: TERMS });
    });
    after(async () => t?.close());

    async function login(world: World, method: "custom" | "email" | "clickthrough", form: Record<string, string>) {
      const client = new PortalClient(t.app);
      const page = await client.get(coovaUrl(world.url, { called: world.apMac, mac: randomMac() }, UAM_SECRET));
      assert.equal(page.statusCode, 200, page.body);
      const res = await client.post(`/portal/login/${method}`, { state: stateOf(page.body), ...form });
      return { page, res };
    }
    const lastLogin = () => t.db.selectFrom("logins").selectAll().orderBy("id", "desc").executeTakeFirstOrThrow();
    const guestOf = (email: string) => t.db.selectFrom("guests").selectAll().where("network_user_id", "=", email).executeTakeFirstOrThrow();

    it("shows a required terms box and an unticked, optional marketing box with its text on every form", async () => {
      const { page } = await login(asking, "email", { email: "page@example.com", accept_terms: "1" });
      for (const prefix of ["custom", "email", "ct"]) {
        assert.match(page.body, new RegExp(`<input id="${prefix}-terms" name="accept_terms" type="checkbox" value="1" required>`));
        assert.match(page.body, new RegExp(`<input id="${prefix}-marketing" name="marketing_opt_in" type="checkbox" value="1">`));
      }
      assert.ok(page.body.includes(MARKETING));
      assert.doesNotMatch(page.body, /marketing_opt_in"[^>]*(checked|required)/);
      const plain = await login(silent, "email", { email: "plain@example.com" });
      assert.doesNotMatch(plain.page.body, /id="email-terms"|marketing_opt_in/);
      assert.match(plain.page.body, /id="ct-terms"/, "click-through always asks");
    });

    it("refuses a login without the terms the campaign requires, and records nothing", async () => {
      const before = (await t.db.selectFrom("logins").select("id").execute()).length;
      const { res } = await login(asking, "custom", { name: "Ann", email: "ann@example.com", marketing_opt_in: "1" });
      assert.equal(res.statusCode, 400);
      assert.match(res.body, /id="custom-terms-error">Please accept the terms of use to connect\.</);
      assert.equal((await t.db.selectFrom("logins").select("id").execute()).length, before);
    });

    it("records what was accepted, when and the versions; the guest keeps the latest marketing choice of a page that asked", async () => {
      const first = await login(asking, "custom", { name: "Ann", email: "ann@example.com", accept_terms: "1" });
      assert.notEqual(first.res.statusCode, 400, first.res.body);
      let l = await lastLogin();
      assert.deepEqual(
        { terms: l.terms_accepted, tv: l.terms_version, mkt: l.marketing_opt_in, mv: l.marketing_version },
        { terms: 1, tv: textVersion(TERMS), mkt: 0, mv: textVersion(MARKETING) },
      );
      let g = await guestOf("ann@example.com");
      assert.equal(g.marketing_opt_in, 0);
      assert.equal(g.marketing_opt_in_at, l.logged_at, "not ticking is a choice too");

      await login(asking, "custom", { name: "Ann", email: "ann@example.com", accept_terms: "1", marketing_opt_in: "1" });
      l = await lastLogin();
      assert.equal(l.marketing_opt_in, 1);
      g = await guestOf("ann@example.com");
      assert.deepEqual([g.marketing_opt_in, g.marketing_opt_in_at, g.marketing_version], [1, l.logged_at, textVersion(MARKETING)]);

      // A page that does not ask leaves the choice as it was, whatever is posted.
      await login(silent, "custom", { name: "Ann", email: "ann@example.com", marketing_opt_in: "1" });
      l = await lastLogin();
      assert.deepEqual([l.terms_accepted, l.marketing_opt_in, l.terms_version, l.marketing_version], [0, 0, "", ""]);
      assert.equal((await guestOf("ann@example.com")).marketing_opt_in, 1);

      const profile = await t.call("GET", "get-social-user-profile", { user_ids: g.id });
      assert.equal(profile.statusCode, 200, JSON.stringify(profile.body));
      const p = profile.body.data[0];
      assert.deepEqual(
        [p.marketing_opt_in, p.marketing_opt_in_datetime, p.marketing_version, p.terms_accepted, p.terms_version],
        [1, g.marketing_opt_in_at, textVersion(MARKETING), 0, ""],
      );
      const day = g.marketing_opt_in_at!.slice(0, 10);
      const csv = await t.app.inject({
        method: "GET",
        url: `/api/social-user-export?identifier=${t.identifier}&location_ids=${asking.locationId}&from_date=2026-01-01&to_date=${day > "2026-12-31" ? day : "2026-12-31"}&format=csv`,
      });
      assert.equal(csv.statusCode, 200, csv.body);
      const [header, ...rows] = csv.body.trim().split("\r\n");
      const cols = header.split(",");
      const ann = rows.map((r) => r.split(",")).find((r) => r[cols.indexOf("email")] === "ann@example.com")!;
      assert.equal(ann[cols.indexOf("marketing_opt_in")], "1");
      assert.equal(ann[cols.indexOf("marketing_opt_in_utc")], g.marketing_opt_in_at);
      assert.equal(ann[cols.indexOf("marketing_version")], textVersion(MARKETING));

      // Unticking on a page that asks withdraws it.
      await login(asking, "email", { email: "ann@example.com", accept_terms: "1" });
      await login(asking, "custom", { name: "Ann", email: "ann@example.com", accept_terms: "1" });
      assert.equal((await guestOf("ann@example.com")).marketing_opt_in, 0);
    });

    it("records a new terms version when the campaign's terms change", async () => {
      await t.call("POST", "create-or-update-campaign", { campaign_id: asking.campaignId, name: "Cafe", custom_terms: "<p>New terms.</p>" });
      await login(asking, "clickthrough", { accept_terms: "1" });
      const l = await lastLogin();
      assert.equal(l.terms_accepted, 1);
      assert.equal(l.terms_version, textVersion("<p>New terms.</p>"));
      assert.notEqual(l.terms_version, textVersion(TERMS));
    });
  });
}
