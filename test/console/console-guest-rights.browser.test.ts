/**
 * The guest page's data-subject controls in Chromium: the owner downloads the guest's export and
 * erases the guest after confirming; a read-only sub-user can export but has no erase control.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";
import { recordLogin } from "../../src/modules/guests/guest-activity.service.js";
import { type TestApp, createTestApp, locationParams } from "../helpers/app.js";
import { launchChromium } from "../helpers/browser.js";
import { DIALECTS } from "../helpers/db.js";
import { subUserParams } from "../helpers/sub-users.js";
import { freeTcpPort } from "../helpers/ports.js";

const PASSWORD = "owner password 123";

for (const dialect of DIALECTS) {
  describe(`console guest rights in Chromium (${dialect})`, () => {
    let t: TestApp;
    let browser: Browser;
    let base: string;
    let guestId = 0;
    const owner = { email: `rights-owner-${dialect}-${Date.now()}@example.com` };
    const reader = { email: `rights-reader-${dialect}-${Date.now()}@example.com`, password: "reader-pass-1" };

    before(async () => {
      const port = await freeTcpPort();
      base = `http://127.0.0.1:${port}`;
      t = await createTestApp(dialect, { PUBLIC_URL: base });
      await t.app.listen({ host: "127.0.0.1", port });
      browser = await launchChromium();
      const a = await createAccount(t.deps, owner.email, PASSWORD);
      const loc = (await t.call("POST", "create-or-update-location", locationParams({ location_name: "Rights Cafe" }), { identifier: a.identifier })).body.location_id;
      const sub = await t.call("POST", "create-sub-user", subUserParams(loc, { email_address: reader.email, password: reader.password, readonly: "1" }), { identifier: a.identifier });
      assert.equal(sub.statusCode, 200, JSON.stringify(sub.body));
      const campaign = await t.db.selectFrom("campaigns").select("id").where("account_id", "is", null).executeTakeFirstOrThrow();
      guestId = (
        await recordLogin(t.deps.db, {
          accountId: a.accountId,
          locationId: loc,
          timezone: "America/Chicago",
          campaignId: campaign.id,
          deviceId: null,
          loginType: "Cuser",
          identity: "grace@example.com",
          profile: { full_name: "Grace Hopper", email: "grace@example.com" },
          clientMac: "02:00:00:00:0A:01",
          userAgent: "Mozilla/5.0",
        })
      ).guestId;
    });
    after(async () => {
      await browser?.close();
      await t?.close();
    });

    async function guestPage(email: string, password: string): Promise<Page> {
      const page = await browser.newPage({ acceptDownloads: true });
      page.on("dialog", (d) => d.accept());
      await page.goto(`${base}/`);
      await page.fill('input[type="email"]', email);
      await page.fill('input[type="password"]', password);
      await page.click('button[type="submit"]');
      await page.waitForSelector('h1:text-is("Overview")');
      await page.goto(`${base}/console/guests/${guestId}`);
      await page.waitForSelector('h1:text-is("Grace Hopper")');
      return page;
    }

    it("a read-only sub-user exports but finds no erase control", async () => {
      const page = await guestPage(reader.email, reader.password);
      const [download] = await Promise.all([page.waitForEvent("download"), page.click('a:text-is("Export data")')]);
      const data = JSON.parse(readFileSync((await download.path())!, "utf8"));
      assert.equal(data.data.guest.email, "grace@example.com");
      assert.equal(await page.locator('button:text-is("Erase guest")').count(), 0);
      await page.close();
    });

    it("the owner exports, then erases after confirming", async () => {
      const page = await guestPage(owner.email, PASSWORD);
      const [download] = await Promise.all([page.waitForEvent("download"), page.click('a:text-is("Export data")')]);
      assert.equal(download.suggestedFilename(), `guest-${guestId}.json`);
      const data = JSON.parse(readFileSync((await download.path())!, "utf8"));
      assert.deepEqual(data.data.macs, ["02:00:00:00:0A:01"]);
      await page.click('button:text-is("Erase guest")');
      await page.waitForSelector('h1:text-is("Guests")');
      assert.equal(await t.db.selectFrom("guests").select("id").where("id", "=", guestId).executeTakeFirst(), undefined);
      await page.close();
    });
  });
}
