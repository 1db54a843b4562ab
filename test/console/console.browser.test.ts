/**
 * The console in Debian's headless Chromium, on SQLite and PostgreSQL: an owner signs in through the
 * form, walks every page, creates and changes each kind of object through the UI and sees it through
 * the API; a read-only sub-user sees everything and finds no enabled control that writes; the owner
 * of another account sees nothing of the first. axe-core runs on every page (no serious or critical
 * violation), the keyboard alone signs in and navigates, and screenshots at 1280x800 and 390x844 go
 * to test-artifacts/console/.
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";
import { recordLogin } from "../../src/modules/guests/guest-activity.service.js";
import { solidPng } from "../modules/campaigns/campaign-fixtures.js";
import { type TestApp, createTestApp, locationParams } from "../helpers/app.js";
import { launchChromium } from "../helpers/browser.js";
import { DIALECTS } from "../helpers/db.js";
import { freeTcpPort } from "../helpers/ports.js";
import { subUserParams } from "../helpers/sub-users.js";
import { DESKTOP, PHONE, VIEWPORTS, axeProblems, openPage, submitTo } from "../helpers/console-browser.js";

const ARTIFACTS = "test-artifacts/console";
const PASSWORD = "owner password 123";
const PAGES = ["Overview", "Live sessions", "Locations", "Campaigns", "Devices", "Guests", "Vouchers", "Controllers", "Webhooks", "Sub-users", "API access"];
/** The logo the owner uploads: 240x80, a blue band. */
const LOGO = solidPng(240, 80, [26, 86, 219]);

for (const dialect of DIALECTS) {
  describe(`console in Chromium (${dialect})`, () => {
    let t: TestApp;
    let browser: Browser;
    let base: string;
    const owner = { email: `owner-${dialect}-${Date.now()}@example.com`, identifier: "", accountId: 0 };
    const other = { email: `other-${dialect}-${Date.now()}@example.com`, identifier: "" };
    const reader = { email: `reader-${dialect}-${Date.now()}@example.com`, password: "reader-pass-1" };
    let seedLocation = 0;

    before(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      const port = await freeTcpPort();
      base = `http://127.0.0.1:${port}`;
      t = await createTestApp(dialect, { PUBLIC_URL: base });
      await t.app.listen({ host: "127.0.0.1", port });
      browser = await launchChromium();

      const a = await createAccount(t.deps, owner.email, PASSWORD);
      owner.identifier = a.identifier;
      owner.accountId = a.accountId;
      other.identifier = (await createAccount(t.deps, other.email, PASSWORD)).identifier;
      const call = async (method: "GET" | "POST", path: string, params: Record<string, unknown>, identifier: string) => {
        const r = await t.call(method, path, params, { identifier });
        assert.equal(r.statusCode, 200, JSON.stringify(r.body));
        return r.body;
      };
      seedLocation = (await call("POST", "create-or-update-location", locationParams({ location_name: "Seed Cafe" }), owner.identifier)).location_id;
      await call("POST", "create-sub-user", subUserParams(seedLocation, { email_address: reader.email, password: reader.password, readonly: "1" }), owner.identifier);
      await call("POST", "create-or-update-location", locationParams({ location_name: "Other Secret Venue" }), other.identifier);
      const campaign = await t.db.selectFrom("campaigns").select("id").where("account_id", "is", null).executeTakeFirstOrThrow();
      const now = Date.now();
      for (let i = 0; i < 40; i++) {
        await recordLogin(t.deps.db, {
          accountId: owner.accountId,
          locationId: seedLocation,
          timezone: "America/Chicago",
          campaignId: campaign.id,
          deviceId: null,
          loginType: i % 3 === 0 ? "Muser" : "Cuser",
          identity: `visitor${i % 15}@example.com`,
          profile: { full_name: i % 2 ? "Marie Curie" : "Ada Lovelace", email: `visitor${i % 15}@example.com` },
          clientMac: `02:00:00:00:00:${String(i % 15).padStart(2, "0")}`,
          userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)",
          at: new Date(now - (i % 10) * 86_400_000 - 3_600_000),
        });
      }
    });
    after(async () => {
      await browser?.close();
      await t?.close();
    });

    async function signedIn(email: string, password: string, viewport = DESKTOP): Promise<Page> {
      const page = await browser.newPage({ viewport });
      page.on("dialog", (d) => d.accept());
      await page.goto(`${base}/`);
      assert.equal(new URL(page.url()).pathname, "/console");
      await page.fill('input[type="email"]', email);
      await page.fill('input[type="password"]', password);
      await page.click('button[type="submit"]');
      await page.waitForSelector('h1:text-is("Overview")');
      return page;
    }

    async function walk(page: Page, who: string, size: string, check: (title: string) => Promise<void> = async () => {}) {
      for (const title of PAGES) {
        await openPage(page, title);
        await page.waitForFunction(() => !document.body.textContent?.includes("Loading…"));
        assert.deepEqual(await axeProblems(page), [], `axe on ${title} (${who}, ${size})`);
        await page.screenshot({ path: `${ARTIFACTS}/${dialect}-${who}-${size}-${title.toLowerCase().replace(/ /g, "-")}.png`, fullPage: true });
        await check(title);
      }
    }

    it("refuses a wrong password with the same words as an unknown e-mail", async () => {
      const page = await browser.newPage({ viewport: DESKTOP });
      await page.goto(`${base}/console`);
      for (const [email, password] of [
        [owner.email, "wrong password!"],
        ["nobody@example.com", PASSWORD],
      ]) {
        await page.fill('input[type="email"]', email);
        await page.fill('input[type="password"]', password);
        await page.click('button[type="submit"]');
        await page.waitForSelector(".field-error");
        assert.equal(await page.textContent(".field-error"), "The e-mail address or password is wrong.");
      }
      assert.deepEqual(await axeProblems(page), []);
      await page.screenshot({ path: `${ARTIFACTS}/${dialect}-sign-in-1280.png` });
      await page.close();
    });

    it("signs in and navigates with the keyboard alone", async () => {
      const page = await browser.newPage({ viewport: DESKTOP });
      await page.goto(`${base}/console`);
      await page.waitForSelector('input[type="email"]');
      await page.keyboard.press("Tab");
      assert.equal(await page.evaluate(() => (document.activeElement as HTMLInputElement).type), "email");
      await page.keyboard.type(owner.email);
      await page.keyboard.press("Tab");
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press("Enter");
      await page.waitForSelector('h1:text-is("Overview")');
      await page.keyboard.press("Tab");
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Skip to content");
      // Tab on to the navigation's Locations link and follow it.
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press("Tab");
        if ((await page.evaluate(() => document.activeElement?.textContent)) === "Locations") break;
      }
      await page.keyboard.press("Enter");
      await page.waitForSelector('h1:text-is("Locations")');
      await page.close();
    });

    it("lets the owner see every page and create and change each kind of object through it", async () => {
      const page = await signedIn(owner.email, PASSWORD);
      await page.waitForSelector("canvas");
      await page.click('button:text-is("365 days")');
      await page.waitForSelector(".cards");
      const totals = await page.textContent(".cards");
      assert.match(totals ?? "", /40\s*logins/);
      await page.screenshot({ path: `${ARTIFACTS}/${dialect}-owner-overview-1280.png`, fullPage: true });
      await walk(page, "owner", "1280", async () => {
        assert.ok(!(await page.content()).includes("Other Secret Venue"));
      });
      const api = async (path: string, params: Record<string, unknown> = {}) => {
        const r = await t.call("GET", path, params, { identifier: owner.identifier });
        assert.equal(r.statusCode, 200, JSON.stringify(r.body));
        return r.body;
      };

      // A location, created then renamed, with its options.
      await openPage(page, "Locations");
      await page.click("text=New location");
      await page.fill("#f-location_name", "Harbour Bar");
      await page.fill("#f-address1", "2 Quay Street");
      await page.fill("#f-town", "Portsmouth");
      await page.fill("#f-state", "Hampshire");
      await page.fill("#f-zipcode", "PO1 2AB");
      await page.fill("#f-country", "GB");
      await page.fill("#f-phone_number", "(555)555-0101");
      await page.fill("#f-timezone", "Europe/London");
      await submitTo(page, "Create location", /\/console\/locations\/\d+$/);
      const locationId = Number(/(\d+)$/.exec(page.url())![1]);
      let loc = (await api("get-location", { location_ids: locationId })).data[0];
      assert.equal(loc.name, "Harbour Bar");
      assert.equal(loc.time_zone, "Europe/London");
      await page.fill("#f-location_name", "Harbour Bar and Grill");
      await page.click('button:text-is("Save location")');
      await page.waitForSelector("text=Saved.");
      loc = (await api("get-location", { location_ids: locationId })).data[0];
      assert.equal(loc.name, "Harbour Bar and Grill");
      // The RADIUS attributes of the options, per dialect (no device yet: all of them), refreshed on save.
      const radiusTable = (family: string) => page.locator(`section[aria-label="RADIUS attributes for ${family}"]`);
      await radiusTable("MikroTik RouterOS HotSpot").waitFor();
      assert.doesNotMatch((await radiusTable("MikroTik RouterOS HotSpot").textContent()) ?? "", /Session-Timeout/);
      await page.fill("#f-session_time_limit", "45");
      await page.fill("#f-max_bandwidth", "10000");
      await page.fill("#f-daily_bandwidth_cap", "500");
      await page.click('button:text-is("Save options")');
      await page.waitForSelector("text=Options saved.");
      const options = (await api("get-location-options", { location_id: locationId })).data;
      assert.deepEqual(options.session_time_limit, { state: true, value: 2700 });
      assert.deepEqual(options.daily_bandwidth_cap, { state: true, value: 500_000_000 });
      await page.waitForFunction(() => document.querySelector('section[aria-label="RADIUS attributes for MikroTik RouterOS HotSpot"]')?.textContent?.includes("Session-Timeout"));
      const rows = async (family: string) =>
        Object.fromEntries(
          (await radiusTable(family).locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")))).map((r) => [r[0], r[1]]),
        );
      const mikrotik = await rows("MikroTik RouterOS HotSpot");
      assert.deepEqual([mikrotik["Session-Timeout"], mikrotik["Mikrotik-Rate-Limit"], mikrotik["Mikrotik-Total-Limit"]], ["2700", "0/10M", "500000000"]);
      const coova = await rows("CoovaChilli, OpenWrt (CoovaChilli or openNDS)");
      assert.deepEqual([coova["WISPr-Bandwidth-Max-Down"], coova["ChilliSpot-Max-Total-Octets"]], ["10000000", "500000000"]);
      assert.deepEqual(await axeProblems(page), []);
      await page.screenshot({ path: `${ARTIFACTS}/${dialect}-owner-1280-location-radius.png`, fullPage: true });

      // A campaign from a template, with its live preview and the missing-keys warning.
      await openPage(page, "Campaigns");
      await page.click("text=New campaign");
      await page.fill("#f-name", "HarbourPage");
      await page.fill("#f-title_text", "Welcome aboard");
      const frame = page.frameLocator('iframe[name="campaign-preview"]');
      await frame.locator("h1:text-is('Welcome aboard')").waitFor();
      assert.equal(await page.locator("iframe.phone").evaluate((f) => (f as HTMLIFrameElement).getBoundingClientRect().width), 390);
      await page.check("#f-login_facebook");
      await page.waitForSelector("text=/Facebook is on, but the service has no keys for it/");
      await page.check("#f-login_voucher");
      await page.check("#f-terms_required");
      await page.check("#f-marketing_opt_in");
      await page.fill("#f-marketing_text", "Send me harbour news.");
      await frame.locator("label:has-text('Send me harbour news.')").first().waitFor();
      // A logo: one too large is refused before anything is sent; a small PNG shows in the preview.
      const tooBig = Buffer.concat([LOGO, Buffer.alloc(210 * 1024)]);
      await page.setInputFiles("#f-logo", { name: "big.png", mimeType: "image/png", buffer: tooBig });
      await page.waitForSelector("#f-logo-err >> text=/may be at most 200 KB/");
      await page.setInputFiles("#f-logo", { name: "logo.png", mimeType: "image/png", buffer: LOGO });
      await page.waitForSelector("#f-logo-err", { state: "detached" });
      await frame.locator("img.logo").waitFor();
      assert.match((await frame.locator("img.logo").getAttribute("src")) ?? "", /^data:image\/png;base64,/);
      assert.equal(await frame.locator("img.logo").evaluate((img) => (img as HTMLImageElement).naturalWidth), 240, "the preview's logo loads under its CSP");
      await submitTo(page, "Create campaign", /\/console\/campaigns\/\d+$/);
      const campaignId = Number(/(\d+)$/.exec(page.url())![1]);
      const campaign = (await api("get-campaign", { campaign_ids: campaignId })).data[0];
      assert.equal(campaign.title_text, "Welcome aboard");
      assert.equal(campaign.login_options.facebook, true);
      assert.equal(campaign.login_options.voucher, true);
      assert.deepEqual([campaign.terms_required, campaign.marketing_opt_in, campaign.marketing_text], [1, 1, "Send me harbour news."]);
      assert.equal(JSON.parse(campaign.payload).logo, `data:image/png;base64,${LOGO.toString("base64")}`);
      const logoPath = new URL(campaign.logo_url).pathname;
      // Saved: the preview links the portal's address, as the guests' page does.
      await page.waitForSelector(`.logo-current img[src="${logoPath}"]`);
      await frame.locator(`img.logo[src="${logoPath}"]`).waitFor();
      assert.equal(await frame.locator("img.logo").evaluate((img) => (img as HTMLImageElement).naturalWidth), 240);
      const served = await page.evaluate(async (u) => {
        const r = await fetch(u);
        return { status: r.status, type: r.headers.get("content-type"), cache: r.headers.get("cache-control"), size: (await r.arrayBuffer()).byteLength };
      }, logoPath);
      assert.deepEqual(served, { status: 200, type: "image/png", cache: "public, max-age=31536000, immutable", size: LOGO.length });
      assert.deepEqual(await axeProblems(page), []);
      await page.screenshot({ path: `${ARTIFACTS}/${dialect}-owner-1280-campaign-edit.png`, fullPage: true });

      // The location shows it.
      await page.goto(`${base}/console/locations/${locationId}`);
      await page.selectOption("#f-campaign_id", String(campaignId));
      await page.click('button:text-is("Show this campaign")');
      await page.waitForSelector("text=The location shows this campaign now.");
      assert.equal((await api("get-location", { location_ids: locationId })).data[0].default_campaign_id, campaignId);
      // The location's login page, as a phone opens it, shows the logo above the title.
      const guest = await browser.newPage({ viewport: PHONE });
      await guest.goto(loc.url);
      const logo = guest.locator(`main > img.logo[src="${logoPath}"]`);
      await logo.waitFor();
      assert.equal(await logo.getAttribute("alt"), "Harbour Bar and Grill");
      assert.equal(await logo.evaluate((img) => (img as HTMLImageElement).naturalWidth), 240, "the portal's CSP lets the logo load");
      assert.equal(await guest.evaluate(() => document.querySelector("main > img.logo")?.nextElementSibling?.tagName), "H1");
      assert.deepEqual(await axeProblems(guest), []);
      await guest.screenshot({ path: `${ARTIFACTS}/${dialect}-portal-logo-390.png`, fullPage: true });
      await guest.close();

      // A device: created, assigned, its secret revealed and rotated.
      await openPage(page, "Devices");
      await page.click("text=Add device");
      await page.fill("#f-device_name", "Bar AP");
      await page.fill("#f-mac_address", "AC:8B:A9:00:00:01");
      await page.selectOption("#f-model_id", "coovachilli");
      await submitTo(page, "Add device", /\/console\/devices\/\d+$/);
      const deviceId = Number(/(\d+)$/.exec(page.url())![1]);
      await page.selectOption("#f-location_id", String(locationId));
      await page.click('button:text-is("Assign")');
      await page.waitForSelector("text=Assigned.");
      let device = (await api("get-device", { device_ids: deviceId })).data[0];
      assert.equal(device.location_id, locationId);
      await page.click('button:text-is("Reveal secret")');
      assert.equal(await page.textContent("code.secret"), device.radius_secret);
      await page.click('button:text-is("Rotate secret")');
      await page.waitForFunction((old) => document.querySelector("code.secret")?.textContent !== old, device.radius_secret);
      const shown = await page.textContent("code.secret");
      device = (await api("get-device", { device_ids: deviceId })).data[0];
      assert.equal(shown, device.radius_secret);
      // The gateway's steps come from get-device-config, after the RadSec section's own list.
      await page.locator("ol", { hasText: "HS_UAMSERVER" }).first().waitFor({ timeout: 10_000 });
      // RadSec: a certificate issued (its key offered once), its state and expiry listed, then revoked.
      await page.click('button:text-is("Issue certificate")');
      await page.waitForSelector("text=Download the private key now");
      const [cert] = (await api("device-certificate-list", { device_id: deviceId })).data as { not_after: string; state: string }[];
      assert.equal(cert.state, "valid");
      await page.waitForSelector(`td >> text=${cert.not_after}`);
      assert.equal(await page.textContent("#radsec-h ~ .table-wrap .status"), "valid");
      assert.ok(await page.locator('a[download$=".key.pem"]').count(), "the key can be saved");
      await page.click('button:text-is("Revoke certificates")');
      await page.waitForFunction(() => document.querySelector("#radsec-h ~ .table-wrap .status")?.textContent === "revoked");
      assert.match(await page.textContent("#radsec-h ~ ol") ?? "", /radsec/);
      // The list names the model by vendor and name, not its id.
      await openPage(page, "Devices");
      const deviceRow = (await page.locator("tr", { hasText: "Bar AP" }).textContent()) ?? "";
      assert.match(deviceRow, /CoovaChilli CoovaChilli gateway on a Linux host/);
      assert.doesNotMatch(deviceRow, /coovachilli/);

      // A sub-user.
      await openPage(page, "Sub-users");
      const staff = `staff-${dialect}-${Date.now()}@example.com`;
      await page.fill("#f-first_name", "Grace");
      await page.fill("#f-last_name", "Hopper");
      await page.fill("#f-email_address", staff);
      await page.fill("#f-password", "staff-pass-1");
      await page.click('button:text-is("Create sub-user")');
      await page.waitForSelector("text=Sub-user created.");
      const subs = (await api("subuser-list")).data as { email: string; readonly: number }[];
      assert.ok(subs.some((s) => s.email === staff && s.readonly === 1));

      // Guests: a search and a profile.
      await openPage(page, "Guests");
      await page.fill('input[type="search"]', "curie");
      await page.click('button:text-is("Search")');
      await page.waitForSelector("td >> text=visitor1@example.com");
      assert.ok((await page.locator("tbody tr").count()) > 0);
      // Login types by name, as the overview says them, not the specification's codes.
      assert.match((await page.textContent("tbody")) ?? "", /E-mail|Custom/);
      assert.doesNotMatch((await page.textContent("tbody")) ?? "", /Muser|Cuser/);
      await page.click("tbody tr >> nth=0 >> a");
      await page.waitForSelector('h2:text-is("Login history")');
      const history = (await page.textContent('section[aria-label="Logins, newest first"]')) ?? "";
      assert.match(history, /E-mail|Custom/);
      assert.doesNotMatch(history, /Muser|Cuser/);
      assert.deepEqual(await axeProblems(page), []);
      await openPage(page, "Guests");
      const href = await page.getAttribute("a:text-is('Download CSV')", "href");
      const csv = await page.evaluate(async (u) => (await fetch(u!)).text(), href);
      assert.match(csv.split("\n")[0], /e-?mail/i);
      assert.ok(csv.includes("visitor1@example.com"));
      assert.ok(!csv.includes("Other Secret Venue"));

      // Vouchers: a batch created for the location, its codes listed, one revoked, the sheet printable.
      await openPage(page, "Vouchers");
      await page.check(`#f-loc_${locationId}`);
      await page.fill("#f-count", "12");
      await page.fill("#f-duration", "90");
      await page.fill("#f-bandwidth_down_kbps", "2000");
      await page.click('button:text-is("Create codes")');
      await page.waitForSelector("text=/Batch \\d+ created/");
      const batch = (await api("voucher-batch-list")).data[0];
      assert.deepEqual([batch.count, batch.duration, batch.bandwidth_down, batch.location_ids], [12, 90, 250_000, [locationId]]);
      await page.click(`a:text-is("Batch ${batch.batch_id}")`);
      await page.waitForSelector("td >> code");
      assert.equal(await page.locator("tbody tr").count(), 12);
      assert.deepEqual(await axeProblems(page), []);
      await page.locator("tbody tr >> nth=0").locator("button").click();
      await page.waitForSelector("text=/revoked\\./");
      const revoked = await api("voucher-list", { batch_id: batch.batch_id, status: "revoked" });
      assert.equal(revoked.total, 1);
      const sheetHref = await page.getAttribute("a:text-is('A4')", "href");
      const sheet = await page.evaluate(async (u) => (await fetch(u!)).text(), sheetHref);
      assert.equal((sheet.match(/class="code"/g) ?? []).length, 11, "the sheet prints the codes not revoked");
      await page.screenshot({ path: `${ARTIFACTS}/${dialect}-owner-1280-voucher-batch.png`, fullPage: true });

      // The location deleted.
      await page.goto(`${base}/console/locations/${locationId}`);
      await page.click('button:text-is("Delete location")');
      await page.waitForFunction(() => location.pathname === "/console/locations");
      const list = (await api("location-list")).data as { id: number }[];
      assert.ok(!list.some((l) => l.id === locationId));

      // API access last: the identifier this test used stops working.
      await openPage(page, "API access");
      await page.fill("#f-password", PASSWORD);
      await page.click('button:text-is("Issue a new identifier")');
      await page.waitForSelector("code.secret");
      const fresh = await page.textContent("code.secret");
      assert.equal((await t.call("GET", "location-list", {}, { identifier: owner.identifier })).statusCode, 400);
      assert.equal((await t.call("GET", "location-list", {}, { identifier: fresh! })).statusCode, 200);
      owner.identifier = fresh!;
      await page.close();
    });

    it("shows a read-only sub-user everything and no enabled control that writes", async () => {
      for (const [viewport, size] of VIEWPORTS) {
        const page = await signedIn(reader.email, reader.password, viewport);
        await page.waitForSelector("option:text-is('Seed Cafe')", { state: "attached" });
        await walk(page, "reader", size, async (title) => {
          const writes = await page.locator(".form button[type=submit]:enabled, button.danger:enabled, button:text-is('Rotate secret')").count();
          assert.equal(writes, 0, `an enabled write control on ${title}`);
        });
        for (const path of ["/console/locations/new", `/console/locations/${seedLocation}`, "/console/campaigns/new", "/console/devices/new"]) {
          await page.goto(`${base}${path}`);
          await page.waitForSelector("h1");
          await page.waitForLoadState("networkidle");
          assert.equal(await page.locator(".form button[type=submit]:enabled, button.danger:enabled").count(), 0, path);
          if (path.startsWith("/console/campaigns")) assert.ok(await page.locator("#f-logo").isDisabled(), "the logo input is disabled");
          if (path === `/console/locations/${seedLocation}`) {
            await page.waitForSelector('section[aria-label^="RADIUS attributes for"]');
            assert.deepEqual(await axeProblems(page), [], path);
            await page.screenshot({ path: `${ARTIFACTS}/${dialect}-reader-${size}-location-detail.png`, fullPage: true });
          }
        }
        await page.close();
      }
    });

    it("shows the owner of another account nothing of the first", async () => {
      const page = await signedIn(other.email, PASSWORD, PHONE);
      await page.waitForSelector("option:text-is('Other Secret Venue')", { state: "attached" });
      await walk(page, "other", "390", async (title) => {
        const text = await page.content();
        assert.ok(!text.includes("Seed Cafe") && !text.includes("Harbour") && !text.includes("visitor1@example.com"), title);
      });
      await page.close();
    });
  });
}
