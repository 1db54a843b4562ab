/**
 * The console's Controllers and Webhooks pages and the Guests page's retention, in Debian's headless
 * Chromium on SQLite and PostgreSQL: the owner adds, edits and deletes a controller and a webhook
 * through the UI and sees them through the API, moves a location to a controller, sees a webhook's
 * secret once and its delivery log fill and page as a real receiver is called, and sets retention;
 * a read-only sub-user sees everything and finds no enabled control that writes; the owner of
 * another account sees nothing of the first. axe-core on every page, screenshots at 1280x800 and
 * 390x844 in test-artifacts/console/.
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { loadConfig } from "../../src/config.js";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";
import { recordLogin } from "../../src/modules/guests/guest-activity.service.js";
import { type WebhookWorker, startWebhookWorker } from "../../src/modules/webhooks/webhook-delivery.js";
import { verifySignature } from "../../src/modules/webhooks/webhook-signature.js";
import { type TestApp, createTestApp, locationParams } from "../helpers/app.js";
import { launchChromium } from "../helpers/browser.js";
import { DESKTOP, PHONE, VIEWPORTS, axeProblems, enabledWrites, openPage, overflowX, settled, signedIn, submitTo } from "../helpers/console-browser.js";
import { DIALECTS } from "../helpers/db.js";
import { freeTcpPort } from "../helpers/ports.js";
import { subUserParams } from "../helpers/sub-users.js";
import { waitUntil } from "../helpers/wait.js";

const ARTIFACTS = "test-artifacts/console";
const PASSWORD = "owner password 123";
const FINGERPRINT = "AB".repeat(32);

interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
}

/** A webhook target on loopback that answers 204 and keeps what it got. */
async function receiver(): Promise<{ url: string; got: Received[]; close(): Promise<void> }> {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const h = (k: string) => String(req.headers[k]);
      got.push({ id: h("webhook-id"), timestamp: h("webhook-timestamp"), signature: h("webhook-signature"), body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, got, close: () => new Promise<void>((r) => server.close(() => r())) };
}

for (const dialect of DIALECTS) {
  describe(`console integrations in Chromium (${dialect})`, () => {
    let t: TestApp;
    let browser: Browser;
    let base: string;
    let rx: Awaited<ReturnType<typeof receiver>>;
    let worker: WebhookWorker | undefined;
    const stamp = `${dialect}-${Date.now()}`;
    const owner = { email: `int-owner-${stamp}@example.com`, identifier: "", accountId: 0 };
    const other = { email: `int-other-${stamp}@example.com`, identifier: "" };
    const reader = { email: `int-reader-${stamp}@example.com`, password: "reader-pass-1" };
    let seedLocation = 0;
    let seedController = 0;
    let seedWebhook = 0;

    const api = async (method: "GET" | "POST", path: string, params: Record<string, unknown> = {}, identifier = owner.identifier) => {
      const r = await t.call(method, path, params, { identifier });
      assert.equal(r.statusCode, 200, `${path}: ${JSON.stringify(r.body)}`);
      return r.body;
    };
    /** A full-page screenshot; at phone width the page must not scroll sideways (wide tables scroll inside their own box). */
    const shot = async (page: Page, name: string) => {
      if (page.viewportSize()?.width === PHONE.width) assert.equal(await overflowX(page), 0, `${name} is wider than the phone`);
      await page.screenshot({ path: `${ARTIFACTS}/${dialect}-${name}.png`, fullPage: true });
    };

    before(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      const port = await freeTcpPort();
      base = `http://127.0.0.1:${port}`;
      t = await createTestApp(dialect, { PUBLIC_URL: base, WEBHOOK_ALLOW_PRIVATE: "true", CONTROLLER_ALLOW_PRIVATE: "true" });
      await t.app.listen({ host: "127.0.0.1", port });
      browser = await launchChromium();
      rx = await receiver();

      const a = await createAccount(t.deps, owner.email, PASSWORD);
      owner.identifier = a.identifier;
      owner.accountId = a.accountId;
      other.identifier = (await createAccount(t.deps, other.email, PASSWORD)).identifier;
      seedLocation = (await api("POST", "create-or-update-location", locationParams({ location_name: "Seed Cafe" }))).location_id;
      await api("POST", "create-sub-user", subUserParams(seedLocation, { email_address: reader.email, password: reader.password, readonly: "1" }));
      seedController = (
        await api("POST", "create-or-update-controller", { name: "Seed Controller", type: "omada", url: "https://192.168.7.2:8043", username: "op", password: "op-pass" })
      ).controller_id;
      await api("POST", "location-assign-controller", { location_id: seedLocation, controller_id: seedController });
      seedWebhook = (await api("POST", "create-or-update-webhook", { url: `${rx.url}/seed`, events: "guest.erased" })).webhook_id;
      await api("POST", "create-or-update-location", locationParams({ location_name: "Other Secret Venue" }), other.identifier);
    });
    after(async () => {
      await worker?.stop();
      await browser?.close();
      await t?.close();
      await rx?.close();
    });

    it("lets the owner add, edit, assign and delete a controller", async () => {
      const page = await signedIn(browser, base, owner.email, PASSWORD);
      await openPage(page, "Controllers");
      assert.match((await page.textContent("table")) ?? "", /Seed Controller\s*Omada\s*https:\/\/192\.168\.7\.2:8043\s*Username and password\s*No\s*Seed Cafe/);
      assert.deepEqual(await axeProblems(page), [], "axe on the controller list");

      await page.click("text=Add controller");
      await page.waitForSelector('h1:text-is("Add controller")');
      assert.deepEqual(await axeProblems(page), [], "axe on a new controller");
      // The API key is a UniFi thing: the field goes away for another type.
      assert.equal(await page.locator("#f-api_key").count(), 1);
      await page.selectOption("#f-type", "omada");
      assert.equal(await page.locator("#f-api_key").count(), 0);
      await page.selectOption("#f-type", "unifi");
      await page.fill("#f-name", "Harbour UniFi");
      await page.fill("#f-url", "https://192.168.1.2:8443");
      await page.fill("#f-username", "hotspot");
      await page.fill("#f-password", "hotspot-pass");
      await page.fill("#f-tls_fingerprint", FINGERPRINT.match(/../g)!.join(":"));
      await submitTo(page, "Add controller", /\/console\/controllers\/\d+$/);
      const id = Number(/(\d+)$/.exec(page.url())![1]);
      const find = async (cid: number) => ((await api("GET", "controller-list")).data as any[]).find((c) => c.id === cid);
      let c = await find(id);
      assert.deepEqual([c.name, c.type, c.url, c.site, c.auth, c.tls_fingerprint], ["Harbour UniFi", "unifi", "https://192.168.1.2:8443", "default", "password", FINGERPRINT]);
      assert.equal(await page.inputValue("#f-password"), "", "credentials are never shown back");

      // Renamed with the credentials left blank: the stored ones stay.
      await page.fill("#f-name", "Harbour UniFi OS");
      await page.click('button:text-is("Save controller")');
      await page.waitForSelector("text=Saved.");
      c = await find(id);
      assert.deepEqual([c.name, c.auth], ["Harbour UniFi OS", "password"]);
      // An API key replaces them.
      await page.fill("#f-api_key", "unifi-api-key-1");
      await page.click('button:text-is("Save controller")');
      await page.waitForFunction(() => document.querySelector("dl.facts")?.textContent?.includes("API key"));
      assert.equal((await find(id)).auth, "api_key");
      assert.equal(await page.inputValue("#f-api_key"), "", "the form starts again blank after a save");

      // Seed Cafe moves from the seed controller to this one.
      const box = page.locator(`#f-loc_${seedLocation}`);
      assert.equal(await page.textContent(`label[for="f-loc_${seedLocation}"]`), "Seed Cafe (now with Seed Controller)");
      await box.check();
      await page.click('button:text-is("Save locations")');
      await page.waitForSelector("text=Locations saved.");
      assert.deepEqual((await find(id)).location_ids, [seedLocation]);
      assert.deepEqual((await find(seedController)).location_ids, []);
      assert.equal(await box.isChecked(), true);
      assert.deepEqual(await axeProblems(page), [], "axe on a controller");
      await shot(page, "owner-1280-controller");
      await page.setViewportSize(PHONE);
      await shot(page, "owner-390-controller");
      await page.setViewportSize(DESKTOP);

      // Unticked: the location is left without one; then back to the seed controller for the other tests.
      await box.uncheck();
      await page.click('button:text-is("Save locations")');
      await page.waitForFunction(() => document.querySelectorAll(".notice-ok").length > 0);
      await waitUntil("the location unassigned", async () => (await find(id)).location_ids.length === 0);
      await api("POST", "location-assign-controller", { location_id: seedLocation, controller_id: seedController });

      await page.click('button:text-is("Delete controller")');
      await page.waitForFunction(() => location.pathname === "/console/controllers");
      await page.waitForSelector('h1:text-is("Controllers")');
      assert.equal(await find(id), undefined);
      await settled(page);
      assert.ok(!(await page.content()).includes("Harbour UniFi"));
      await shot(page, "owner-1280-controllers");
      await page.close();
    });

    it("tests a controller's connection from its page and shows the last failure in words, with its time", async () => {
      // Nothing listens on this port: the controller is unreachable at once (no timeout to wait for).
      const closed = await freeTcpPort();
      const cid = (await api("POST", "create-or-update-controller", { name: "Dock UniFi", type: "unifi", url: `https://127.0.0.1:${closed}`, username: "u", password: "p-pass" })).controller_id;
      const page = await signedIn(browser, base, owner.email, PASSWORD);
      await page.goto(`${base}/console/controllers/${cid}`);
      await page.waitForSelector('h2:text-is("Connection")');
      await page.waitForSelector("text=Not called yet.");
      await page.click('button:text-is("Test connection")');
      const notice = page.locator(".notice-error", { hasText: "Last failure at" });
      await notice.waitFor();
      assert.match((await notice.textContent()) ?? "", /^Last failure at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC: Unreachable: ECONNREFUSED/);
      const stored = ((await api("GET", "controller-list")).data as any[]).find((c) => c.id === cid);
      assert.equal(stored.last_status, "unreachable");
      assert.deepEqual(await axeProblems(page), [], "axe on a controller with its connection status");
      await api("POST", "delete-controller", { controller_id: cid });
      await page.close();
    });

    it("lets the owner add, edit and delete a webhook, shows its secret once and its delivery log as events are delivered", async () => {
      const page = await signedIn(browser, base, owner.email, PASSWORD);
      await openPage(page, "Webhooks");
      assert.ok((await page.textContent("table"))?.includes(`${rx.url}/seed`));
      assert.deepEqual(await axeProblems(page), [], "axe on the webhook list");
      await page.click("text=Add webhook");
      await page.waitForSelector('h1:text-is("Add webhook")');
      assert.deepEqual(await axeProblems(page), [], "axe on a new webhook");
      assert.equal(await page.isChecked("#f-ev_guest_login"), true);
      await page.fill("#f-url", rx.url);
      await page.check("#f-ev_session_stop");
      await page.check(`#f-loc_${seedLocation}`);
      await submitTo(page, "Add webhook", /\/console\/webhooks\/\d+$/);
      const id = Number(/(\d+)$/.exec(page.url())![1]);
      const secret = (await page.textContent("code.secret")) ?? "";
      assert.match(secret, /^whsec_/);
      const find = async (wid: number) => ((await api("GET", "webhook-list")).data as any[]).find((w) => w.webhook_id === wid);
      let w = await find(id);
      assert.deepEqual([w.url, w.events, w.location_ids], [rx.url, ["guest.login", "session.stop"], [seedLocation]]);
      await page.waitForSelector("text=No delivery yet: events appear here when they happen.");
      assert.deepEqual(await axeProblems(page), [], "axe on a new webhook's page");

      await page.uncheck("#f-ev_session_stop");
      await page.click('button:text-is("Save webhook")');
      await page.waitForSelector("text=Saved.");
      w = await find(id);
      assert.deepEqual(w.events, ["guest.login"]);

      // 25 logins: 25 deliveries queued, shown 20 a page, newest first.
      const campaign = await t.db.selectFrom("campaigns").select("id").where("account_id", "is", null).executeTakeFirstOrThrow();
      for (let i = 0; i < 25; i++) {
        await recordLogin(t.deps.db, {
          accountId: owner.accountId,
          locationId: seedLocation,
          timezone: "America/Chicago",
          campaignId: campaign.id,
          deviceId: null,
          loginType: "Cuser",
          identity: `hooked${i}@example.com`,
          profile: { email: `hooked${i}@example.com` },
          clientMac: `02:00:00:00:01:${String(i).padStart(2, "0")}`,
          userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)",
          at: new Date(Date.now() - 60_000),
        });
      }
      await page.click('button:text-is("Refresh")');
      await page.waitForSelector('table >> text="guest.login"');
      assert.equal(await page.locator("tbody tr").count(), 20);
      assert.match((await page.textContent("tbody tr")) ?? "", /guest\.login\s*pending\s*0/);
      await page.click('button:text-is("Older")');
      await page.waitForFunction(() => document.querySelectorAll("tbody tr").length === 5);
      assert.equal(await page.isDisabled('button:text-is("Older")'), true);
      await page.click('button:text-is("Newer")');
      await page.waitForFunction(() => document.querySelectorAll("tbody tr").length === 20);

      // The worker delivers them to the receiver, signed with the secret the page showed.
      worker = startWebhookWorker(t.db, loadConfig({ WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_POLL_MS: "20" }).webhooks, { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} });
      await waitUntil("25 deliveries", async () => {
        const r = await api("GET", "webhook-delivery-list", { webhook_id: id, limit: 100 });
        return r.data.length === 25 && r.data.every((d: { status: string }) => d.status === "delivered");
      });
      const got = rx.got.filter((g) => JSON.parse(g.body).type === "guest.login");
      assert.equal(got.length, 25);
      for (const g of got) assert.ok(verifySignature(secret, g.id, g.timestamp, g.body, g.signature), "signed with the secret shown");
      await page.click('button:text-is("Refresh")');
      await page.waitForFunction(() => document.querySelector("tbody tr")?.textContent?.includes("delivered"));
      assert.match((await page.textContent("tbody tr")) ?? "", /guest\.login\s*delivered\s*1\s*\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s*—\s*HTTP 204/);
      await page.selectOption("#delivery-status", "failed");
      await page.waitForSelector("text=No delivery yet: events appear here when they happen.");
      await page.selectOption("#delivery-status", "delivered");
      await page.waitForFunction(() => document.querySelectorAll("tbody tr").length === 20);
      assert.deepEqual(await axeProblems(page), [], "axe on a webhook's delivery log");
      await shot(page, "owner-1280-webhook");
      await page.setViewportSize(PHONE);
      await shot(page, "owner-390-webhook");
      await page.setViewportSize(DESKTOP);

      // The secret was shown once: the page opened again has none.
      await page.goto(`${base}/console/webhooks/${id}`);
      await page.waitForSelector('h2:text-is("Delivery log")');
      await settled(page);
      assert.equal(await page.locator("code.secret").count(), 0);
      assert.ok(!(await page.content()).includes(secret));

      await page.click('button:text-is("Delete webhook")');
      await page.waitForFunction(() => location.pathname === "/console/webhooks");
      assert.equal(await find(id), undefined);
      assert.ok(await find(seedWebhook));
      await page.close();
    });

    it("keeps what was typed in a form while a list the form depends on is still loading", async () => {
      const page = await signedIn(browser, base, owner.email, PASSWORD);
      // The locations arrive late: the sub-user form's initial values change when they do.
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route("**/api/location-list**", async (route) => {
        await held;
        await route.continue();
      });
      await page.click('nav a:text-is("Sub-users")');
      await page.waitForSelector("#f-first_name");
      const email = `late-${dialect}-${Date.now()}@example.com`;
      await page.fill("#f-first_name", "Ada");
      await page.fill("#f-last_name", "Lovelace");
      await page.fill("#f-email_address", email);
      await page.fill("#f-password", "late-pass-1");
      const listed = page.waitForResponse((r) => r.url().includes("/api/location-list"));
      release();
      await listed;
      await page.waitForFunction(() => document.querySelectorAll("#f-quickreport_location_id option").length > 0);
      assert.equal(await page.inputValue("#f-first_name"), "Ada", "typed before the list arrived, still there");
      await page.click('button:text-is("Create sub-user")');
      await page.waitForSelector("text=Sub-user created.");
      const subs = (await api("GET", "subuser-list", {})).data as { email: string }[];
      assert.ok(subs.some((x) => x.email === email));
      await page.close();
    });

    it("lets the owner set retention on the Guests page, and refuses a value out of range beside its field", async () => {
      const page = await signedIn(browser, base, owner.email, PASSWORD, PHONE);
      await openPage(page, "Guests");
      // The period in force is shown (0: off, a new account's default) before anything is saved.
      await page.waitForSelector("text=retention is off; guests are kept until erased by hand.");
      await page.fill("#f-retention_days", "5000");
      await page.click('button:text-is("Save retention")');
      await page.waitForSelector("#f-retention_days-err");
      const row = await t.db.selectFrom("accounts").select("retention_days").where("id", "=", owner.accountId).executeTakeFirstOrThrow();
      assert.equal(Number(row.retention_days), 0);
      await page.fill("#f-retention_days", "400");
      await page.click('button:text-is("Save retention")');
      await page.waitForSelector("text=Retention has been successfully set.");
      await page.waitForSelector("text=guests not seen for 400 days are erased.");
      const saved = await t.db.selectFrom("accounts").select("retention_days").where("id", "=", owner.accountId).executeTakeFirstOrThrow();
      assert.equal(Number(saved.retention_days), 400);
      assert.deepEqual(await axeProblems(page), [], "axe on the Guests page with retention");
      await shot(page, "owner-390-guests-retention");
      await page.close();
    });

    it("shows a read-only sub-user the controllers and webhooks and no enabled control that writes", async () => {
      for (const [viewport, size] of VIEWPORTS) {
        const page = await signedIn(browser, base, reader.email, reader.password, viewport);
        for (const title of ["Controllers", "Webhooks", "Guests"]) {
          await openPage(page, title);
          assert.deepEqual(await axeProblems(page), [], `axe on ${title} (reader, ${size})`);
          assert.equal(await enabledWrites(page).count(), 0, `an enabled write control on ${title}`);
          assert.equal(await page.locator("a:text-is('Add controller'), a:text-is('Add webhook')").count(), 0);
          await shot(page, `reader-${size}-${title.toLowerCase()}`);
        }
        assert.ok((await page.content()).includes("Only the account's owner sets the retention period."));
        await openPage(page, "Controllers");
        assert.ok((await page.textContent("table"))?.includes("Seed Controller"));
        for (const path of [`/console/controllers/${seedController}`, "/console/controllers/new", `/console/webhooks/${seedWebhook}`, "/console/webhooks/new"]) {
          await page.goto(`${base}${path}`);
          await page.waitForSelector("h1");
          await settled(page);
          assert.equal(await enabledWrites(page).count(), 0, path);
          assert.deepEqual(await axeProblems(page), [], `axe on ${path} (reader, ${size})`);
        }
        // The server refuses a write of the reader's session whatever the page shows.
        const refused = await page.evaluate(async (cid) => {
          const me = await (await fetch("/console/api/me")).json();
          const res = await fetch("/api/delete-controller", {
            method: "POST",
            headers: { "content-type": "application/json", "x-csrf-token": me.user.csrf_token },
            body: JSON.stringify({ controller_id: cid }),
          });
          return { status: res.status, body: await res.json() };
        }, seedController);
        assert.deepEqual(refused, { status: 400, body: { status: "error", message: { identifier: ["This identifier is read-only."] } } });
        await page.close();
      }
      assert.ok(((await api("GET", "controller-list")).data as { id: number }[]).some((c) => c.id === seedController));
    });

    it("shows the owner of another account nothing of the first", async () => {
      const page = await signedIn(browser, base, other.email, PASSWORD, PHONE);
      for (const title of ["Controllers", "Webhooks"]) {
        await openPage(page, title);
        const text = await page.content();
        assert.ok(!text.includes("Seed Controller") && !text.includes(rx.url) && !text.includes("Seed Cafe"), title);
        assert.deepEqual(await axeProblems(page), [], `axe on ${title} (other, 390)`);
        await shot(page, `other-390-${title.toLowerCase()}`);
      }
      await page.goto(`${base}/console/controllers/${seedController}`);
      await page.waitForSelector("text=This controller does not exist or was deleted.");
      await page.goto(`${base}/console/webhooks/${seedWebhook}`);
      await page.waitForSelector("text=This webhook does not exist or was deleted.");
      assert.ok(!(await page.content()).includes(rx.url));
      await page.close();
    });
  });
}
