/**
 * The console's Sub-users lifecycle and Audit log pages in Debian's headless Chromium, on SQLite and
 * PostgreSQL: the owner edits a sub-user (names, password, read-only, scope of locations), disables
 * it (its sign-in stops), enables it (its sign-in comes back) and deletes it after confirming, each
 * seen through the API; the Audit log lists those writes newest first, filters them by action, actor,
 * record and dates, pages through them and shows and sets the retention; a read-only sub-user reads
 * the log and cannot set the retention. axe-core at 1,280 and 390 px, no sideways scrolling on the
 * phone; screenshots in test-artifacts/console/.
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";
import { type TestApp, createTestApp, locationParams } from "../helpers/app.js";
import { launchChromium } from "../helpers/browser.js";
import { DESKTOP, PHONE, VIEWPORTS, axeProblems, enabledWrites, openPage, overflowX, settled, signedIn } from "../helpers/console-browser.js";
import { DIALECTS } from "../helpers/db.js";
import { freeTcpPort } from "../helpers/ports.js";
import { subUserParams } from "../helpers/sub-users.js";

const ARTIFACTS = "test-artifacts/console";
const PASSWORD = "owner password 123";

interface SubUserRow {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  readonly: number;
  disabled: number;
  location_ids: number[];
}

for (const dialect of DIALECTS) {
  describe(`console sub-users and audit log in Chromium (${dialect})`, () => {
    let t: TestApp;
    let browser: Browser;
    let base: string;
    const stamp = `${dialect}-${Date.now()}`;
    const owner = { email: `sa-owner-${stamp}@example.com`, identifier: "" };
    const staff = { email: `sa-staff-${stamp}@example.com`, password: "staff-pass-1", id: 0 };
    const reader = { email: `sa-reader-${stamp}@example.com`, password: "reader-pass-1" };
    /** The owner's one signed-in page (sign-ins are limited to 10 a minute per address). */
    let ownerPage: Page;
    let harbour = 0;
    let dock = 0;

    const api = async (method: "GET" | "POST", path: string, params: Record<string, unknown> = {}) => {
      const r = await t.call(method, path, params, { identifier: owner.identifier });
      assert.equal(r.statusCode, 200, `${path}: ${JSON.stringify(r.body)}`);
      return r.body;
    };
    const subUser = async (id: number) => ((await api("GET", "subuser-list")).data as SubUserRow[]).find((s) => s.id === id);
    /** The console's sign-in answer for an e-mail and password (a script's request: no browser headers). */
    const signInStatus = async (email: string, password: string) =>
      (await fetch(`${base}/console/api/sign-in`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) })).status;
    /** The owner's page, at `viewport`, reloaded on the console page at `path`. */
    const owned = async (path: string, title: string, viewport = DESKTOP) => {
      await ownerPage.setViewportSize(viewport);
      await ownerPage.goto(`${base}${path}`);
      await ownerPage.waitForSelector(`h1:text-is("${title}")`);
      await settled(ownerPage);
      return ownerPage;
    };
    const shot = async (page: Page, name: string) => {
      if (page.viewportSize()?.width === PHONE.width) assert.equal(await overflowX(page), 0, `${name} is wider than the phone`);
      await page.screenshot({ path: `${ARTIFACTS}/${dialect}-${name}.png`, fullPage: true });
    };

    before(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      const port = await freeTcpPort();
      base = `http://127.0.0.1:${port}`;
      t = await createTestApp(dialect, { PUBLIC_URL: base });
      await t.app.listen({ host: "127.0.0.1", port });
      browser = await launchChromium();
      owner.identifier = (await createAccount(t.deps, owner.email, PASSWORD)).identifier;
      harbour = (await api("POST", "create-or-update-location", locationParams({ location_name: "Harbour Cafe" }))).location_id;
      dock = (await api("POST", "create-or-update-location", locationParams({ location_name: "Dock Bar" }))).location_id;
      staff.id = (
        await api("POST", "create-sub-user", subUserParams(harbour, { first_name: "Grace", last_name: "Hopper", email_address: staff.email, password: staff.password }))
      ).sub_user_id;
      ownerPage = await signedIn(browser, base, owner.email, PASSWORD);
      await api("POST", "create-sub-user", subUserParams(harbour, { first_name: "Rita", last_name: "Reader", email_address: reader.email, password: reader.password, readonly: "1" }));
    });
    after(async () => {
      await browser?.close();
      await t?.close();
    });

    it("lets the owner edit a sub-user's names, password, access and scope", async () => {
      const page = await owned("/console/sub-users", "Sub-users");
      const row = page.locator("tr", { hasText: staff.email });
      assert.match((await row.textContent()) ?? "", /Grace Hopper.*Full\s*Every location\s*Active/);
      assert.deepEqual(await axeProblems(page), [], "axe on the sub-user list");

      await page.click('button[aria-label="Edit Grace Hopper"]');
      await page.waitForSelector('h2:text-is("Edit Grace Hopper")');
      assert.equal(await page.inputValue("#f-email_address"), staff.email);
      assert.ok(await page.isChecked("#edit-scope-every"), "every location by default");
      await page.fill("#f-last_name", "Brewster Hopper");
      await page.fill("#f-password", "a-new-staff-pass");
      await page.check("#f-readonly");
      await page.check(`#edit-scope-loc-${dock}`);
      assert.ok(!(await page.isChecked("#edit-scope-every")), "a ticked location is no longer every location");
      assert.deepEqual(await axeProblems(page), [], "axe on the edit form");
      await page.click('button:text-is("Save sub-user")');
      await page.waitForSelector("text=Sub User has been successfully updated.");
      const saved = await subUser(staff.id);
      assert.equal(saved?.last_name, "Brewster Hopper");
      assert.equal(saved?.readonly, 1);
      assert.deepEqual(saved?.location_ids, [dock]);
      await page.waitForFunction((email) => [...document.querySelectorAll("tr")].some((tr) => tr.textContent?.includes(email) && tr.textContent.includes("Dock Bar")), staff.email);
      assert.match((await row.textContent()) ?? "", /Grace Brewster Hopper.*Read-only\s*Dock Bar\s*Active/);
      assert.equal(await signInStatus(staff.email, staff.password), 401, "the old password no longer signs in");
      staff.password = "a-new-staff-pass";
      assert.equal(await signInStatus(staff.email, staff.password), 200);

      // Back to every location.
      await page.check("#edit-scope-every");
      await page.click('button:text-is("Save sub-user")');
      await page.waitForFunction((email) => [...document.querySelectorAll("tr")].some((tr) => tr.textContent?.includes(email) && tr.textContent.includes("Every location")), staff.email);
      assert.deepEqual((await subUser(staff.id))?.location_ids, []);
    });

    it("refuses a short password beside its field and changes nothing", async () => {
      const page = await owned("/console/sub-users", "Sub-users", PHONE);
      await page.click('button[aria-label="Edit Grace Brewster Hopper"]');
      await page.fill("#f-password", "short");
      await page.click('button:text-is("Save sub-user")');
      await page.waitForSelector("#f-password-err");
      assert.match((await page.textContent("#f-password-err")) ?? "", /at least 10 characters/);
      assert.equal((await subUser(staff.id))?.last_name, "Brewster Hopper");
      assert.deepEqual(await axeProblems(page), [], "axe on the edit form with an error, 390 px");
      await shot(page, "owner-390-sub-user-edit");
    });

    it("lets the owner disable, enable and, after confirming, delete a sub-user", async () => {
      for (const [viewport, size] of VIEWPORTS) {
        const page = await owned("/console/sub-users", "Sub-users", viewport);
        const questions: string[] = [];
        const ask = (d: { message(): string }) => questions.push(d.message());
        page.on("dialog", ask);
        const row = page.locator("tr", { hasText: staff.email });
        await page.click('button[aria-label="Disable Grace Brewster Hopper"]');
        await row.locator("strong", { hasText: "Disabled" }).waitFor();
        assert.equal((await subUser(staff.id))?.disabled, 1, "the list said Disabled, so the API does");
        if (size === "390") assert.equal(await signInStatus(staff.email, staff.password), 401, "a disabled sub-user cannot sign in");
        assert.deepEqual(await axeProblems(page), [], `axe on a disabled sub-user, ${size} px`);
        await shot(page, `owner-${size}-sub-users-disabled`);
        await page.click('button[aria-label="Enable Grace Brewster Hopper"]');
        await row.locator('button:text-is("Disable")').waitFor();
        assert.equal((await subUser(staff.id))?.disabled, 0);
        if (size === "390") assert.equal(await signInStatus(staff.email, staff.password), 200, "enabled again, it signs in");
        assert.equal(questions.length, 1, "disabling asks first; enabling does not");
        page.off("dialog", ask);
      }

      const page = await owned("/console/sub-users", "Sub-users");
      let asked = "";
      // Dismissed first: nothing is deleted.
      page.removeAllListeners("dialog");
      page.once("dialog", (d) => {
        asked = d.message();
        void d.dismiss();
      });
      await openPage(page, "Sub-users");
      await page.click('button[aria-label="Delete Grace Brewster Hopper"]');
      assert.match(asked, /Delete Grace Brewster Hopper for good\?/);
      assert.ok(await subUser(staff.id), "a dismissed confirmation deletes nothing");
      page.once("dialog", (d) => void d.accept());
      await page.click('button[aria-label="Delete Grace Brewster Hopper"]');
      await page.waitForSelector("text=Grace Brewster Hopper is deleted.");
      assert.equal(await subUser(staff.id), undefined);
      // The list is read again after the message: wait for its row to go.
      await page.locator("tr", { hasText: staff.email }).waitFor({ state: "detached", timeout: 10_000 });
      assert.equal(await signInStatus(staff.email, staff.password), 401);
      page.on("dialog", (d) => void d.accept());
    });

    it("shows the audit log newest first, filters and pages it, and lets the owner set its retention", async () => {
      // Enough writes for a second page (25 a page).
      for (let i = 0; i < 24; i++) await api("POST", "create-or-update-location", locationParams({ location_id: dock, location_name: `Dock Bar ${i}` }));
      for (const [viewport, size] of VIEWPORTS) {
        const page = await owned("/console/audit-log", "Audit log", viewport);
        const first = page.locator("tbody tr").first();
        assert.match((await first.textContent()) ?? "", /create-or-update-location/);
        await page.waitForSelector("text=Entries older than 365 days are deleted.");
        assert.match((await page.textContent("p[role=status]")) ?? "", /\d+ entries, newest first; page 1 of 2\./);
        assert.equal(await page.locator("tbody tr").count(), 25);
        if (size === "1280") {
          const cut = await page.evaluate(() => {
            const wrap = document.querySelector(".table-wrap")!;
            return wrap.scrollWidth - wrap.clientWidth;
          });
          assert.equal(cut, 0, "the audit table fits at 1,280 px, the address column included");
        }
                assert.deepEqual(await axeProblems(page), [], `axe on the audit log, ${size} px`);
        await shot(page, `owner-${size}-audit-log`);

        await page.click('button:text-is("Older")');
        await page.waitForSelector("text=page 2 of 2.");
        assert.match((await page.textContent("tbody")) ?? "", /create-sub-user/);

        await page.fill("#audit-action", "update-sub-user");
        await page.click('button:text-is("Show")');
        await page.waitForSelector("text=2 entries, newest first; page 1 of 1.");
        const text = (await page.textContent("tbody")) ?? "";
        assert.match(text, /last_name: Brewster Hopper/);
        assert.match(text, /password: \(changed\)/);
        assert.ok(!text.includes("a-new-staff-pass"), "never a password's value");
        assert.match(text, /Sub user \d+/);
        assert.match(text, new RegExp(`${owner.email.replace(/\./g, "\\.")}\\s*owner via console`));

        await page.click('button:text-is("Clear")');
        await page.selectOption("#audit-record", `location_id:${harbour}`);
        await page.click('button:text-is("Show")');
        await page.waitForSelector("text=1 entry, newest first; page 1 of 1.");
        assert.match((await page.textContent("tbody")) ?? "", /Location Harbour Cafe/);

        await page.click('button:text-is("Clear")');
        await page.selectOption("#audit-who", "cli");
        await page.click('button:text-is("Show")');
        await page.waitForSelector("text=No entry matches.");

        const today = new Date().toISOString().slice(0, 10);
        await page.click('button:text-is("Clear")');
        await page.fill("#audit-from", "2020-01-01");
        await page.fill("#audit-to", "2020-01-31");
        await page.click('button:text-is("Show")');
        await page.waitForSelector("text=No entry matches.");
        await page.fill("#audit-from", today);
        await page.fill("#audit-to", today);
        await page.click('button:text-is("Show")');
        await page.waitForSelector("text=page 1 of 2.");
      }

      const page = await owned("/console/audit-log", "Audit log", PHONE);
      assert.equal(await page.inputValue("#f-retention_days"), "365", "the form starts from the period in force");
      await page.fill("#f-retention_days", "4000");
      await page.click('button:text-is("Save audit retention")');
      await page.waitForSelector("#f-retention_days-err");
      await page.fill("#f-retention_days", "30");
      await page.click('button:text-is("Save audit retention")');
      await page.waitForSelector("text=Audit log retention has been successfully set.");
      await page.waitForSelector("text=Entries older than 30 days are deleted.");
      assert.equal((await api("GET", "audit-log-list")).retention_days, 30);
      // The table reloads after the save: the newest entry, first, becomes the retention's own.
      await page.waitForFunction(() => document.querySelector("tbody tr")?.textContent?.includes("set-audit-log-retention"));
      assert.deepEqual(await axeProblems(page), [], "axe on the audit log after saving retention, 390 px");
    });

    it("shows a read-only sub-user the log and no enabled control that writes", async () => {
      const page = await signedIn(browser, base, reader.email, reader.password, DESKTOP);
      await openPage(page, "Audit log");
      await page.waitForSelector("text=Only the account's owner sets how long the audit log is kept.");
      assert.equal(await enabledWrites(page).count(), 0);
      assert.ok((await page.locator("tbody tr").count()) > 0);
      assert.deepEqual(await axeProblems(page), [], "axe on the audit log as a reader");
      await settled(page);
      await page.close();
    });
  });
}
