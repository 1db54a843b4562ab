/**
 * The console's routing (preact-iso) in Debian's headless Chromium, on SQLite and PostgreSQL: links
 * move between pages without reloading the document, back and forward walk the history, a deep link
 * opens a record's page directly, an unknown address shows the overview, and at 390 px following a
 * link in the menu (the current page's too) closes it.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";
import { type TestApp, createTestApp, locationParams } from "../helpers/app.js";
import { launchChromium } from "../helpers/browser.js";
import { PHONE, openPage, overflowX, settled, signedIn } from "../helpers/console-browser.js";
import { DIALECTS } from "../helpers/db.js";
import { freeTcpPort } from "../helpers/ports.js";

const PASSWORD = "router owner password";

/** Marks the document: the mark survives in-page navigation and is gone after a reload. */
const mark = (page: Page) => page.evaluate(() => ((globalThis as unknown as { routerMark: number }).routerMark = 1));
const marked = (page: Page) => page.evaluate(() => (globalThis as unknown as { routerMark?: number }).routerMark === 1);
const heading = async (page: Page, text: string) => {
  await page.waitForSelector(`h1:text-is("${text}")`);
  await settled(page);
};

for (const dialect of DIALECTS) {
  describe(`console routing in Chromium (${dialect})`, () => {
    let t: TestApp;
    let browser: Browser;
    let base: string;
    const email = `router-${dialect}-${Date.now()}@example.com`;
    let locationId = 0;

    before(async () => {
      const port = await freeTcpPort();
      base = `http://127.0.0.1:${port}`;
      t = await createTestApp(dialect, { PUBLIC_URL: base });
      await t.app.listen({ host: "127.0.0.1", port });
      browser = await launchChromium();
      const { identifier } = await createAccount(t.deps, email, PASSWORD);
      const made = await t.call("POST", "create-or-update-location", locationParams({ location_name: "Router Cafe" }), { identifier });
      assert.equal(made.statusCode, 200, JSON.stringify(made.body));
      locationId = made.body.location_id;
    });
    after(async () => {
      await browser?.close();
      await t?.close();
    });

    it("follows links without a reload, walks back and forward, and opens deep links", async () => {
      const page = await signedIn(browser, base, email, PASSWORD);
      await mark(page);
      await openPage(page, "Locations");
      await page.click('a:text-is("Router Cafe")');
      await heading(page, "Router Cafe");
      assert.equal(new URL(page.url()).pathname, `/console/locations/${locationId}`);
      assert.match(await page.title(), /^Locations · /);

      await page.goBack();
      await heading(page, "Locations");
      assert.equal(new URL(page.url()).pathname, "/console/locations");
      await page.goBack();
      await heading(page, "Overview");
      await page.goForward();
      await heading(page, "Locations");
      await page.goForward();
      await heading(page, "Router Cafe");
      assert.ok(await marked(page), "every step stayed in the same document");

      // A record's address typed or bookmarked opens that record.
      await page.goto(`${base}/console/locations/${locationId}`);
      await heading(page, "Router Cafe");
      assert.ok(!(await marked(page)), "a deep link loads the page anew");
      await page.goto(`${base}/console/locations/new`);
      await heading(page, "New location");
      // An address the console does not know shows the overview.
      await page.goto(`${base}/console/no-such-page`);
      await heading(page, "Overview");
      await page.close();
    });

    it("closes the phone layout's menu on every link it follows, the current page's too", async () => {
      const page = await signedIn(browser, base, email, PASSWORD, PHONE);
      await mark(page);
      const nav = page.locator("#nav");
      const toggle = page.locator("button.menu-toggle");
      assert.ok(!(await nav.isVisible()), "closed at first");
      await toggle.click();
      await nav.waitFor({ state: "visible" });
      await page.click('nav a:text-is("Overview")');
      await nav.waitFor({ state: "hidden" });
      await toggle.click();
      await page.click('nav a:text-is("Guests")');
      await nav.waitFor({ state: "hidden" });
      await heading(page, "Guests");
      assert.equal(await toggle.getAttribute("aria-expanded"), "false");
      assert.equal(await overflowX(page), 0);
      await page.goBack();
      await heading(page, "Overview");
      assert.ok(await marked(page));
      await page.close();
    });
  });
}
