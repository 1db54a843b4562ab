/**
 * The console's Passpoint page in Chromium: the owner configures a location's Passpoint through the
 * form, sees the values the access points need (normalised as the API keeps them), looks up a
 * guest's credentials and revokes one (recorded as revoked by the console, and RADIUS refuses it
 * since); axe finds no serious violation at 1,280 and 390 px. On SQLite and PostgreSQL.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";
import { recordLogin } from "../../src/modules/guests/guest-activity.service.js";
import { checkPasspointPassword, issueTtlsCredential } from "../../src/modules/passpoint/passpoint-credentials.service.js";
import { type TestApp, createTestApp, locationParams } from "../helpers/app.js";
import { launchChromium } from "../helpers/browser.js";
import { DESKTOP, PHONE, axeProblems, openPage, overflowX, settled, signedIn } from "../helpers/console-browser.js";
import { DIALECTS } from "../helpers/db.js";
import { freeTcpPort } from "../helpers/ports.js";

const PASSWORD = "owner password 123";

for (const dialect of DIALECTS) {
  describe(`console Passpoint page in Chromium (${dialect})`, () => {
    let t: TestApp;
    let browser: Browser;
    let base: string;
    const owner = { email: `pp-owner-${dialect}-${Date.now()}@example.com`, identifier: "", accountId: 0 };
    let locationId = 0;

    before(async () => {
      const port = await freeTcpPort();
      base = `http://127.0.0.1:${port}`;
      t = await createTestApp(dialect, { PUBLIC_URL: base });
      await t.app.listen({ host: "127.0.0.1", port });
      browser = await launchChromium();
      const a = await createAccount(t.deps, owner.email, PASSWORD);
      owner.identifier = a.identifier;
      owner.accountId = a.accountId;
      const loc = await t.call("POST", "create-or-update-location", locationParams({ location_name: "Harbour Cafe" }), { identifier: owner.identifier });
      assert.equal(loc.statusCode, 200, JSON.stringify(loc.body));
      locationId = loc.body.location_id;
    });
    after(async () => {
      await browser?.close();
      await t?.close();
    });

    async function onPasspoint(viewport = DESKTOP): Promise<Page> {
      const page = await signedIn(browser, base, owner.email, PASSWORD, viewport);
      await openPage(page, "Passpoint");
      return page;
    }

    it("configures a location's Passpoint through the form and shows the values the access points need", async () => {
      const page = await onPasspoint();
      assert.match((await page.textContent("main")) ?? "", /No Passpoint configuration yet\./);
      await page.check(`#f-loc_${locationId}`);
      await page.fill("#f-ssid", "Harbour Secure");
      await page.fill("#f-domain", "WiFi.Harbour.Example");
      await page.fill("#f-realm", "harbour.example");
      await page.fill("#f-roaming_consortium", "5a-03-ba-00-00, 004096");
      await page.fill("#f-friendly_name", "Harbour");
      await page.selectOption("#f-eap_method", "tls");
      await page.fill("#f-credential_days", "30");
      await page.click('button:text-is("Create")');
      await page.waitForSelector('td:text-is("Harbour Secure")');
      assert.deepEqual(await page.locator(".field-error, .notice-error").allTextContents(), []);
      const row = await page.locator("tr", { has: page.locator('td:text-is("Harbour Secure")') }).locator("td").allTextContents();
      assert.deepEqual(row.slice(0, 7), ["Harbour Secure", "wifi.harbour.example", "harbour.example", "5A03BA0000,004096", "Harbour", "EAP-TLS", "Harbour Cafe"]);
      const saved = await t.db.selectFrom("passpoint_configs").selectAll().where("account_id", "=", owner.accountId).executeTakeFirstOrThrow();
      assert.equal(saved.eap_method, "tls");
      assert.equal(saved.credential_days, 30);

      // Edit: the form takes the configuration's values; the change shows in the table.
      await page.click('button:text-is("Edit")');
      await page.waitForSelector('h2:text-is("Edit Harbour Secure")');
      assert.equal(await page.inputValue("#f-domain"), "wifi.harbour.example");
      assert.ok(await page.isChecked(`#f-loc_${locationId}`), "the covered location is ticked");
      await page.selectOption("#f-eap_method", "ttls");
      await page.click('button:text-is("Save")');
      await page.waitForSelector('td:text-is("EAP-TTLS/PAP")');
      assert.equal(await page.locator('td:text-is("Harbour Secure")').count(), 1, "updated, not added");

      assert.equal(await overflowX(page), 0);
      assert.deepEqual(await axeProblems(page), [], "axe at 1,280 px");
      await page.close();
      const phone = await onPasspoint(PHONE);
      await phone.waitForSelector('td:text-is("Harbour Secure")');
      assert.equal(await overflowX(phone), 0, "the page does not scroll sideways at 390 px");
      assert.deepEqual(await axeProblems(phone), [], "axe at 390 px");
      await phone.close();
    });

    it("lists a guest's credentials and revokes one: revoked by the console, refused by RADIUS's check since", async () => {
      const config = await t.db.selectFrom("passpoint_configs").selectAll().where("account_id", "=", owner.accountId).executeTakeFirstOrThrow();
      const { guestId } = await recordLogin(t.db, {
        accountId: owner.accountId,
        locationId,
        timezone: "America/Chicago",
        campaignId: 0,
        deviceId: null,
        loginType: "Cuser",
        identity: "pp-guest@example.com",
        profile: { email: "pp-guest@example.com" },
        clientMac: "0A:11:22:33:44:66",
        userAgent: "",
      });
      const kept = await issueTtlsCredential(t.deps, { accountId: owner.accountId, guestId, locationId, config });
      const gone = await issueTtlsCredential(t.deps, { accountId: owner.accountId, guestId, locationId, config });
      const page = await onPasspoint();
      await page.fill("#pp-user-id", String(guestId));
      await page.waitForSelector(`td:text-is("${gone.username}")`);
      await settled(page);
      assert.equal(await page.locator('td:text-is("valid")').count(), 2);
      await page.getByRole("button", { name: `Revoke ${gone.username}` }).click();
      await page.waitForSelector('td:text-is("revoked (console)")');
      const states = await t.db.selectFrom("passpoint_credentials").select(["username", "revoked_by"]).where("guest_id", "=", guestId).orderBy("id").execute();
      assert.deepEqual(states, [
        { username: kept.username, revoked_by: "" },
        { username: gone.username, revoked_by: "console" },
      ]);
      assert.equal(await checkPasspointPassword(t.db, t.deps.repos, gone.username, gone.password, new Date()), "revoked");
      assert.notEqual(typeof (await checkPasspointPassword(t.db, t.deps.repos, kept.username, kept.password, new Date())), "string", "the other one still works");
      assert.deepEqual(await axeProblems(page), [], "axe at 1,280 px with the guest's credentials");
      await page.close();
      const phone = await onPasspoint(PHONE);
      await phone.fill("#pp-user-id", String(guestId));
      await phone.waitForSelector('td:text-is("revoked (console)")');
      assert.equal(await overflowX(phone), 0);
      assert.deepEqual(await axeProblems(phone), [], "axe at 390 px with the guest's credentials");
      await phone.close();
    });
  });
}
