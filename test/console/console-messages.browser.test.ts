/**
 * The console's Automations, Messages and Surveys pages and a guest's messages, in Debian's headless
 * Chromium against a real SMTP server (aiosmtpd): the owner sends a test e-mail and sees it in the
 * log, turns on the quick report, adds and pauses an automation through the form; a guest's page
 * shows the messages sent to them and their survey answer; the Surveys page draws the score.
 * A read-only sub-user finds no enabled control that writes. axe-core on every page; screenshots in
 * test-artifacts/console/.
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";
import type { OutboxLoop } from "../../src/db/outbox.js";
import { startMessageWorker } from "../../src/modules/messages/message-worker.js";
import { type TestApp, createTestApp, locationParams } from "../helpers/app.js";
import { launchChromium } from "../helpers/browser.js";
import { PHONE, VIEWPORTS, axeProblems, enabledWrites, openPage, overflowX, settled, signedIn, submitTo } from "../helpers/console-browser.js";
import { DIALECTS } from "../helpers/db.js";
import { loginGuest, mailEnv } from "../helpers/mail.js";
import { freeTcpPort } from "../helpers/ports.js";
import { type SmtpServer, startSmtpServer } from "../helpers/smtp-server.js";
import { subUserParams } from "../helpers/sub-users.js";

const ARTIFACTS = "test-artifacts/console";
const PASSWORD = "owner password 123";

for (const dialect of DIALECTS) {
  describe(`console messages in Chromium (${dialect})`, () => {
    let t: TestApp;
    let smtp: SmtpServer;
    let browser: Browser;
    let base: string;
    let worker: OutboxLoop;
    let guest = 0;
    const stamp = `${dialect}-${Date.now()}`;
    const owner = { email: `msg-owner-${stamp}@example.com`, identifier: "" };
    const reader = { email: `msg-reader-${stamp}@example.com`, password: "reader-pass-1" };

    const api = async (method: "GET" | "POST", path: string, params: Record<string, unknown> = {}) => {
      const r = await t.call(method, path, params, { identifier: owner.identifier });
      assert.equal(r.statusCode, 200, `${path}: ${JSON.stringify(r.body)}`);
      return r.body;
    };
    const shot = async (page: Page, name: string) => {
      if (page.viewportSize()?.width === PHONE.width) assert.equal(await overflowX(page), 0, `${name} is wider than the phone`);
      await page.screenshot({ path: `${ARTIFACTS}/${dialect}-${name}.png`, fullPage: true });
    };

    before(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      smtp = await startSmtpServer();
      const port = await freeTcpPort();
      base = `http://127.0.0.1:${port}`;
      t = await createTestApp(dialect, mailEnv(smtp, { PUBLIC_URL: base }));
      await t.app.listen({ host: "127.0.0.1", port });
      worker = startMessageWorker(t.deps, t.config, { debug() {}, info() {}, warn() {}, error() {} });
      browser = await launchChromium();
      const a = await createAccount(t.deps, owner.email, PASSWORD);
      owner.identifier = a.identifier;
      const loc = (await api("POST", "create-or-update-location", locationParams({ location_name: "Harbour Cafe" }))).location_id;
      await api("POST", "create-sub-user", subUserParams(loc, { email_address: reader.email, password: reader.password, readonly: "1" }));
      // A guest of the owner's account who answered a survey.
      const auto = (await api("POST", "create-or-update-automation", { trigger: "welcome", channel: "email", name: "Seed welcome" })).automation_id;
      guest = await loginGuest({ ...t, accountId: a.accountId }, loc, { optIn: true, email: "ines@example.org", name: "Ines Harbour" });
      const [m] = (await api("GET", "message-list", { user_id: guest })).data;
      await t.db.insertInto("survey_answers").values({ account_id: a.accountId, message_id: m.message_id, automation_id: auto, guest_id: guest, location_id: loc, score: 9, comment: "Lovely view", answered_at: "2026-11-20 10:00:00", local_day: new Date().toISOString().slice(0, 10) }).execute();
    });
    after(async () => {
      await worker?.stop();
      await browser?.close();
      await t?.close();
      await smtp?.stop();
    });

    it("sends a test e-mail and keeps the quick report setting from the Messages page", async () => {
      const page = await signedIn(browser, base, owner.email, PASSWORD);
      await openPage(page, "Messages");
      assert.deepEqual(await axeProblems(page), [], "axe on Messages");
      await page.fill("#f-to", "ops@example.net");
      await page.click('button:text-is("Send a test e-mail")');
      await page.waitForSelector("text=A test e-mail to ops@example.net has been queued.");
      const [got] = await smtp.waitFor(2);
      assert.ok((await smtp.received()).some((r) => r.mail.subject?.includes("Test e-mail")), String(got));
      await page.check("#f-quickreport");
      await page.selectOption("#f-frequency", "weekly");
      await page.click('button:text-is("Save quick report")');
      await page.waitForSelector("text=Saved.");
      assert.deepEqual((await api("GET", "get-quick-report")).data, { ...(await api("GET", "get-quick-report")).data, quickreport: 1, frequency: "weekly" });
      // The test e-mail's row is written by the outbox worker once the message is sent; on a loaded
      // machine that can follow the first refresh, so refresh until it shows (bounded).
      const deadline = Date.now() + 30_000;
      let log = "";
      do {
        await page.click('button:text-is("Refresh")');
        await settled(page);
        log = (await page.textContent("table")) ?? "";
      } while (!/ops@example\.net/.test(log) && Date.now() < deadline);
      assert.match(log, /ops@example\.net/);
      for (const [viewport, name] of VIEWPORTS) {
        await page.setViewportSize(viewport);
        await shot(page, `messages-${name}`);
      }
      await page.close();
    });

    it("adds, pauses and deletes an automation through the form", async () => {
      const page = await signedIn(browser, base, owner.email, PASSWORD);
      await openPage(page, "Automations");
      assert.deepEqual(await axeProblems(page), [], "axe on Automations");
      await page.click("text=Add automation");
      await page.waitForSelector('h1:text-is("Add automation")');
      assert.deepEqual(await axeProblems(page), [], "axe on a new automation");
      await page.fill("#f-name", "After the visit");
      await page.selectOption("#f-trigger", "visit-ended");
      await page.fill("#f-delay_minutes", "45");
      await page.fill("#f-body", "Thanks {{first_name|friend}}!");
      await page.check("#f-survey");
      await page.fill("#f-review_url", "https://reviews.example.com/harbour");
      await submitTo(page, "Add automation", /\/console\/automations\/\d+$/);
      const made = (await api("GET", "automation-list")).data.find((a: any) => a.name === "After the visit");
      assert.deepEqual([made.trigger, made.delay_minutes, made.survey, made.review_url, made.active], ["visit-ended", 45, 1, "https://reviews.example.com/harbour", 1]);
      await page.uncheck("#f-active");
      await page.click('button:text-is("Save automation")');
      await page.waitForSelector("text=Automation has been successfully updated.");
      assert.equal((await api("GET", "automation-list")).data.find((a: any) => a.name === "After the visit").active, 0);
      await shot(page, "automation-1280");
      await page.click('button:text-is("Delete automation")');
      await page.waitForSelector('h1:text-is("Automations")');
      assert.equal((await api("GET", "automation-list")).data.some((a: any) => a.name === "After the visit"), false);
      await page.close();
    });

    it("shows a guest's messages and survey answer, and the location's score on Surveys", async () => {
      const page = await signedIn(browser, base, owner.email, PASSWORD);
      await page.goto(`${base}/console/guests/${guest}`);
      await page.waitForSelector('h2:text-is("Survey answers")');
      await settled(page);
      assert.match((await page.textContent("main")) ?? "", /Lovely view/);
      assert.match((await page.textContent("main")) ?? "", /ines@example\.org/);
      assert.deepEqual(await axeProblems(page), [], "axe on the guest");
      await openPage(page, "Surveys");
      assert.match((await page.textContent("dl.facts")) ?? "", /Answers\s*1\s*Average score\s*9\s*Net promoter score\s*100/);
      assert.equal(await page.locator("canvas").count(), 2);
      assert.deepEqual(await axeProblems(page), [], "axe on Surveys");
      await shot(page, "surveys-1280");
      await page.close();
    });

    it("gives a read-only sub-user no control that writes", async () => {
      const page = await signedIn(browser, base, reader.email, reader.password);
      for (const title of ["Automations", "Messages"]) {
        await openPage(page, title);
        const writes = await enabledWrites(page).evaluateAll((els) => els.map((e) => e.textContent));
        // Its own quick report is its own to change, as an unsubscribe link would.
        assert.deepEqual(writes.filter((w) => w !== "Save quick report"), [], `${title}: ${writes}`);
      }
      await page.close();
    });
  });
}
