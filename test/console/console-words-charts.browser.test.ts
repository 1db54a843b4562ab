/**
 * Issue 25, points 4, 5 and 8 in Chromium at 1,280 and 390 px, on SQLite and PostgreSQL: the empty
 * overview's first steps; charts grouped by week or month beside the previous period, with whole
 * ticks on count axes; campaign templates and consent texts in words; errors in words beside the
 * field; the retention in force; vouchers (the warning, the printed sheet, a sub-user's scope); a
 * webhook for every location; axe-core without serious or critical violations on every page.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser } from "playwright-core";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";
import { recordLogin } from "../../src/modules/guests/guest-activity.service.js";
import { textVersion } from "../../src/modules/campaigns/consent-texts.js";
import { type TestApp, createTestApp, locationParams } from "../helpers/app.js";
import { launchChromium } from "../helpers/browser.js";
import { VIEWPORTS, axeProblems, openPage, overflowX, settled, signedIn } from "../helpers/console-browser.js";
import { DIALECTS } from "../helpers/db.js";
import { subUserParams } from "../helpers/sub-users.js";
import { PNG_1X1 } from "../modules/campaigns/campaign-fixtures.js";
import { freeTcpPort } from "../helpers/ports.js";

const PASSWORD = "owner password 123";
const TERMS = "<p>Be kind to the network.</p>";
const MARKETING = "Send me the harbour's offers.";
const PAGES = [
  "Overview",
  "Live sessions",
  "Locations",
  "Campaigns",
  "Devices",
  "Guests",
  "Vouchers",
  "Controllers",
  "Automations",
  "Messages",
  "Surveys",
  "Webhooks",
  "Sub-users",
  "Audit log",
  "API access",
];

for (const dialect of DIALECTS) {
  describe(`console words, charts and vouchers in Chromium (${dialect})`, () => {
    let t: TestApp;
    let browser: Browser;
    let base: string;
    const stamp = `${dialect}-${Date.now()}`;
    const owner = { email: `words-owner-${stamp}@example.com`, identifier: "", accountId: 0 };
    const scoped = { email: `words-scoped-${stamp}@example.com`, password: "scoped-pass-1" };
    let harbour = 0;
    let dock = 0;
    let guestId = 0;

    const call = async (method: "GET" | "POST", path: string, params: Record<string, unknown>, identifier = owner.identifier) => {
      const r = await t.call(method, path, params, { identifier });
      assert.equal(r.statusCode, 200, `${path}: ${JSON.stringify(r.body)}`);
      return r.body;
    };

    before(async () => {
      const port = await freeTcpPort();
      base = `http://127.0.0.1:${port}`;
      t = await createTestApp(dialect, { PUBLIC_URL: base });
      await t.app.listen({ host: "127.0.0.1", port });
      browser = await launchChromium();
      const a = await createAccount(t.deps, owner.email, PASSWORD);
      owner.identifier = a.identifier;
      owner.accountId = a.accountId;
    });
    after(async () => {
      await browser?.close();
      await t?.close();
    });

    it("greets an account with no location with its next steps, and axe finds nothing", async () => {
      for (const [viewport, width] of VIEWPORTS) {
        const page = await signedIn(browser, base, owner.email, PASSWORD, viewport);
        await page.waitForSelector('h2:text-is("Get started")');
        const text = (await page.textContent("main")) ?? "";
        for (const step of ["Add a location", "Create a campaign", "Add a device", "guestwifi demo"]) assert.ok(text.includes(step), `${width} px: ${step}`);
        assert.equal(await overflowX(page), 0, `${width} px: no sideways scrolling`);
        assert.deepEqual(await axeProblems(page), [], `axe on the empty overview at ${width} px`);
        await page.click('a:text-is("Add a location")');
        await page.waitForURL(/\/console\/locations\/new$/);
        await page.close();
      }
    });

    it("charts a year by month with the previous year beside it, and a month by day, with whole ticks", async () => {
      harbour = (await call("POST", "create-or-update-location", locationParams({ location_name: "Harbour Cafe", timezone: "Europe/London" }))).location_id;
      dock = (await call("POST", "create-or-update-location", locationParams({ location_name: "Dock Bar", timezone: "Europe/London" }))).location_id;
      const tpl = (await call("GET", "campaign-list", {})).data.find((c: { template: number; name: string }) => c.template === 1 && c.name === "CustomFormLogin").id;
      const campaign = (
        await call("POST", "create-or-update-campaign", {
          name: "Harbour Summer",
          template_campaign_id: tpl,
          ssid: "HarbourCafe-Guest",
          custom_terms: TERMS,
          terms_required: "1",
          marketing_opt_in: "1",
          marketing_text: MARKETING,
          logo: `data:image/png;base64,${PNG_1X1.toString("base64")}`,
        })
      ).campaign_id;
      await call("POST", "location-assign-campaign", { location_id: harbour, campaign_id: campaign });
      // One login a fortnight for two years: a few a day at most, so ticks of 0.1 would show on a count axis.
      const now = Date.now();
      for (let d = 700; d >= 0; d -= 14) {
        const r = await recordLogin(t.deps.db, {
          accountId: owner.accountId,
          locationId: harbour,
          timezone: "Europe/London",
          campaignId: campaign,
          deviceId: null,
          loginType: "Muser",
          identity: "mara@example.com",
          profile: { email: "mara@example.com", full_name: "Mara Quay" },
          clientMac: "0A:11:22:33:44:66",
          userAgent: "",
          at: new Date(now - d * 86_400_000),
          consent: { termsAccepted: true, termsVersion: textVersion(TERMS), marketingOffered: true, marketingTicked: true, marketingVersion: textVersion(MARKETING) },
        });
        guestId = r.guestId;
      }
      for (const [viewport, width] of VIEWPORTS) {
        const page = await signedIn(browser, base, owner.email, PASSWORD, viewport);
        await settled(page);
        await page.waitForSelector('figcaption:text-is("Logins per day by login type")');
        const ticks = await page.getAttribute("figure:has(figcaption:text-is('Logins per day by login type')) canvas", "data-y-ticks");
        assert.ok(ticks, "the chart drew its axis");
        for (const v of ticks.split(",")) assert.ok(Number.isInteger(Number(v)), `${width} px: a whole tick, not ${v}`);
        assert.match((await page.textContent(".cards")) ?? "", /on the previous period/, "the totals compare with the previous period");
        await page.click('button:text-is("365 days")');
        await page.waitForSelector('figcaption:text-is("Logins per month by login type")');
        await settled(page);
        const table = page.locator("figure:has(figcaption:text-is('Logins per month by login type')) table");
        const heads = await table.locator("thead th").allTextContents();
        assert.deepEqual([heads[0], heads[heads.length - 1]], ["Month", "Previous 365 days"], `${width} px: months, with the previous period beside`);
        const rows = await table.locator("tbody tr").count();
        assert.ok(rows >= 12 && rows <= 13, `${width} px: a year is 12 or 13 months (partial ends), not 365 bars: ${rows}`);
        const perMonth = await table.locator("tbody tr td:last-child").allTextContents();
        assert.ok(perMonth.some((n) => Number(n) > 0), "the previous year had logins");
        await page.click('button:text-is("90 days")');
        await page.waitForSelector('figcaption:text-is("Visits per week")');
        assert.equal(await overflowX(page), 0, `${width} px: no sideways scrolling`);
        assert.deepEqual(await axeProblems(page), [], `axe on the overview at ${width} px`);
        await page.close();
      }
    });

    it("names templates and consent texts in words, the login type by name, and errors beside the field in words", async () => {
      for (const [viewport, width] of VIEWPORTS) {
        const page = await signedIn(browser, base, owner.email, PASSWORD, viewport);
        await page.goto(`${base}/console/campaigns/new`);
        await page.waitForSelector("#template");
        const options = await page.locator("#template option").allTextContents();
        assert.ok(options.includes("Form: name and e-mail"), `${width} px: ${options.join(", ")}`);
        assert.ok(!options.some((o) => /CustomFormLogin|ClickThrough|SocialLogin/.test(o)), "no code names");

        await page.goto(`${base}/console/guests/${guestId}`);
        await page.waitForSelector('h1:text-is("Mara Quay")');
        await settled(page);
        const profile = (await page.textContent("main")) ?? "";
        assert.match(profile, /Opted in on .+ UTC, to the text saved on \d{4}-\d{2}-\d{2}/);
        assert.ok(profile.includes(MARKETING), "the marketing text itself");
        assert.ok(profile.includes("Be kind to the network."), "the terms as the guest read them, without markup");
        assert.ok(!profile.includes("text version"), "no bare version");
        assert.ok(profile.includes("E-mail") && !profile.includes("Muser"), "the login type by name");
        assert.equal(await overflowX(page), 0, `${width} px: no sideways scrolling`);
        assert.deepEqual(await axeProblems(page), [], `axe on the guest's profile at ${width} px`);

        await page.goto(`${base}/console/vouchers`);
        await page.waitForSelector('h2:text-is("New batch")');
        await page.fill("#f-count", "0");
        await page.click('button:text-is("Create codes")');
        const error = page.locator("#f-count-err");
        await error.waitFor();
        assert.equal(await error.textContent(), "The “Number of codes” must be at least 1.");
        assert.equal(await page.getAttribute("#f-count", "aria-describedby"), "f-count-err", "the error is tied to its field");
        await page.close();
      }
    });

    it("shows the retention period in force", async () => {
      await call("POST", "set-account-retention", { retention_days: 400 });
      for (const [viewport, width] of VIEWPORTS) {
        const page = await signedIn(browser, base, owner.email, PASSWORD, viewport);
        await openPage(page, "Guests");
        await page.waitForSelector("text=guests not seen for 400 days are erased.");
        assert.equal(await page.inputValue("#f-retention_days"), "400", `${width} px: the form starts from the period in force`);
        await page.close();
      }
    });

    it("warns when a batch's location does not offer the voucher login, and prints venue, network, logo and how to connect", async () => {
      const page = await signedIn(browser, base, owner.email, PASSWORD);
      await page.goto(`${base}/console/vouchers`);
      await page.waitForSelector(`#f-loc_${harbour}`);
      await page.check(`#f-loc_${harbour}`);
      await page.fill("#f-count", "3");
      await page.click('button:text-is("Create codes")');
      const warning = page.locator(".notice-warn", { hasText: "does not offer the voucher login" });
      await warning.waitFor();
      assert.match((await warning.textContent()) ?? "", /Harbour Cafe \(campaign Harbour Summer\) does not offer the voucher login/);
      const batch = (await call("GET", "voucher-batch-list", {})).data[0].batch_id;
      const sheet = await fetch(`${base}/api/voucher-sheet?batch_id=${batch}&identifier=${owner.identifier}`);
      assert.equal(sheet.status, 200);
      assert.match(sheet.headers.get("content-security-policy") ?? "", /img-src data:/);
      const html = await sheet.text();
      assert.ok(html.includes('<p class="v">Harbour Cafe</p>'), "the venue's name");
      assert.ok(html.includes("Connect to the WiFi network “HarbourCafe-Guest”, open any web page and enter this code."), "the network and how to connect");
      assert.ok(html.includes('<img class="logo" src="data:image/png;base64,'), "the campaign's logo");
      await page.close();
    });

    it("keeps a scoped sub-user to the batches of its locations", async () => {
      const dockBatch = (await call("POST", "create-voucher-batch", { location_ids: String(dock), count: 2, duration: 30 })).batch_id;
      const harbourBatch = (await call("GET", "voucher-batch-list", {})).data.find((b: { location_ids: number[] }) => b.location_ids.includes(harbour)).batch_id;
      await call("POST", "create-sub-user", subUserParams(dock, { email_address: scoped.email, password: scoped.password, location_ids: String(dock) }));
      const page = await signedIn(browser, base, scoped.email, scoped.password);
      await openPage(page, "Vouchers");
      const listed = await page.locator("table a").allTextContents();
      assert.deepEqual(listed, [`Batch ${dockBatch}`], "only the batch of its location");
      const other = await page.evaluate(async (id) => (await fetch(`/api/voucher-list?batch_id=${id}`)).status, harbourBatch);
      assert.equal(other, 400, "another location's batch is refused like another account's");
      await page.close();
    });

    it("creates a webhook for every location when no location is ticked", async () => {
      const page = await signedIn(browser, base, owner.email, PASSWORD);
      await page.goto(`${base}/console/webhooks`);
      await page.click("text=Add webhook");
      await page.waitForSelector('h1:text-is("Add webhook")');
      await page.fill("#f-url", "https://93.184.215.14/every");
      await page.click('button:text-is("Add webhook")');
      await page.waitForURL(/\/console\/webhooks\/\d+$/);
      const hooks = (await call("GET", "webhook-list", {})).data as { url: string; location_ids: number[] }[];
      assert.deepEqual(hooks.find((h) => h.url === "https://93.184.215.14/every")?.location_ids, []);
      await page.close();
    });

    it("has no serious or critical axe violation on any page, at either width", async () => {
      for (const [viewport, width] of VIEWPORTS) {
        const page = await signedIn(browser, base, owner.email, PASSWORD, viewport);
        for (const title of PAGES) {
          await openPage(page, title);
          assert.deepEqual(await axeProblems(page), [], `axe on ${title} at ${width} px`);
          assert.equal(await overflowX(page), 0, `${title} at ${width} px: no sideways scrolling`);
        }
        await page.close();
      }
    });
  });
}
