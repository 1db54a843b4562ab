/**
 * The console's live page in Chromium: a session started by radclient shows up, the owner ends it
 * with Disconnect (a stand-in gateway answers the Disconnect-Request), and a read-only sub-user sees
 * the same page without the button. On SQLite and PostgreSQL.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";
import { recordLogin } from "../../src/modules/guests/guest-activity.service.js";
import { type RadiusListener, startRadius } from "../../src/radius/radius-server.js";
import { type TestApp, createTestApp, locationParams } from "../helpers/app.js";
import { launchChromium } from "../helpers/browser.js";
import { DESKTOP, PHONE, axeProblems, signedIn } from "../helpers/console-browser.js";
import { DIALECTS } from "../helpers/db.js";
import { subUserParams } from "../helpers/sub-users.js";
import { radclient } from "../radius/radclient.js";
import { type StandInNas, startStandInNas } from "../radius/stand-in-nas.js";
import { freeTcpPort } from "../helpers/ports.js";

const PASSWORD = "owner password 123";
const SECRET = "console-coa-secret";

for (const dialect of DIALECTS) {
  describe(`console live sessions in Chromium (${dialect})`, () => {
    let t: TestApp;
    let browser: Browser;
    let base: string;
    let nas: StandInNas;
    let radius: RadiusListener;
    const owner = { email: `live-owner-${dialect}-${Date.now()}@example.com`, identifier: "", accountId: 0 };
    const reader = { email: `live-reader-${dialect}-${Date.now()}@example.com`, password: "reader-pass-1" };
    let locationId = 0;
    const apMac = "02:AA:BB:CC:DD:01";
    const clientMac = "0A:11:22:33:44:55";

    before(async () => {
      nas = await startStandInNas(SECRET, { answer: "ack" });
      const port = await freeTcpPort();
      base = `http://127.0.0.1:${port}`;
      t = await createTestApp(dialect, {
        PUBLIC_URL: base,
        RADIUS_HOST: "127.0.0.1",
        RADIUS_AUTH_PORT: "0",
        RADIUS_ACCT_PORT: "0",
        RADIUS_COA_PORT: String(nas.port),
        RADIUS_COA_TIMEOUT_MS: "300",
      });
      await t.app.listen({ host: "127.0.0.1", port });
      radius = await startRadius({ db: t.db, config: t.config, log: t.app.log, ctx: t.deps });
      browser = await launchChromium();
      const a = await createAccount(t.deps, owner.email, PASSWORD);
      owner.identifier = a.identifier;
      owner.accountId = a.accountId;
      const call = async (path: string, params: Record<string, unknown>) => {
        const r = await t.call("POST", path, params, { identifier: owner.identifier });
        assert.equal(r.statusCode, 200, JSON.stringify(r.body));
        return r.body;
      };
      locationId = (await call("create-or-update-location", locationParams({ location_name: "Live Cafe" }))).location_id;
      await call("create-sub-user", subUserParams(locationId, { email_address: reader.email, password: reader.password, readonly: "1" }));
      const device = (await call("create-device", { device_name: "Bar AP", model_id: "coovachilli", mac_address: apMac })).device_id;
      await call("device-assign-location", { device_id: device, location_id: locationId });
      await t.db.updateTable("devices").set({ radius_secret: SECRET }).where("id", "=", device).execute();
      const campaign = await t.db.selectFrom("campaigns").select("id").where("account_id", "is", null).executeTakeFirstOrThrow();
      await recordLogin(t.deps.db, {
        accountId: owner.accountId,
        locationId,
        timezone: "America/Chicago",
        campaignId: campaign.id,
        deviceId: device,
        loginType: "Cuser",
        identity: "live@example.com",
        profile: { email: "live@example.com" },
        clientMac,
        userAgent: "",
      });
      const r = await radclient(radius.acctPort, "acct", SECRET, [
        "Acct-Status-Type = Start",
        `User-Name = "${clientMac.replace(/:/g, "-")}"`,
        'Acct-Session-Id = "console-live-1"',
        `Calling-Station-Id = "${clientMac.replace(/:/g, "-")}"`,
        `Called-Station-Id = "${apMac.replace(/:/g, "-")}:Guest"`,
        "Framed-IP-Address = 10.0.0.42",
      ]);
      assert.equal(r.code, "Accounting-Response", r.output);
    });
    after(async () => {
      await browser?.close();
      await radius?.stop();
      await t?.close();
      await nas?.close();
    });

    /** Signed in (test/helpers/console-browser.ts), on the live sessions with the guest's. */
    async function onLiveSessions(email: string, password: string, viewport = DESKTOP): Promise<Page> {
      const page = await signedIn(browser, base, email, password, viewport);
      await page.goto(`${base}/console/sessions`);
      await page.waitForSelector('h1:text-is("Live sessions")');
      await page.waitForSelector(`td small:text-is("${clientMac}")`);
      return page;
    }

    it("names the guest by what the login gave (their e-mail), and the table fits 1,280 px with Disconnect in view", async () => {
      const page = await onLiveSessions(owner.email, PASSWORD);
      assert.equal(await page.textContent("td a"), "live@example.com", "the guest by e-mail, not Guest 1");
      const fit = await page.evaluate(() => {
        const wrap = document.querySelector(".table-wrap") as HTMLElement;
        const button = [...document.querySelectorAll("button")].find((b) => b.textContent === "Disconnect") as HTMLElement;
        return { over: wrap.scrollWidth - wrap.clientWidth, right: button.getBoundingClientRect().right, width: window.innerWidth };
      });
      assert.equal(fit.over, 0, "the table does not scroll sideways at 1,280 px");
      assert.ok(fit.right <= fit.width, `Disconnect in view (${fit.right} of ${fit.width} px)`);
      assert.deepEqual(await axeProblems(page), [], "axe at 1,280 px");
      await page.close();
      const phone = await onLiveSessions(owner.email, PASSWORD, PHONE);
      assert.equal(await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, "the page does not scroll sideways at 390 px");
      assert.deepEqual(await axeProblems(phone), [], "axe at 390 px");
      await phone.close();
    });

    it("hides Disconnect from a read-only sub-user", async () => {
      const page = await onLiveSessions(reader.email, reader.password);
      assert.equal(await page.locator("button", { hasText: "Disconnect" }).count(), 0);
      assert.match((await page.textContent("main")) ?? "", /\b1 guest online\./, "one guest, in the singular");
      assert.match((await page.textContent("main")) ?? "", /read-only access/);
      await page.close();
    });

    it("lets the owner end a session: the gateway gets a Disconnect-Request and the guest leaves the list", async () => {
      const page = await onLiveSessions(owner.email, PASSWORD);
      await page.getByRole("button", { name: `Disconnect ${clientMac}` }).click();
      await page.waitForSelector('.notice:text("The gateway ended the session.")');
      await page.waitForSelector("text=Nobody is online.");
      // One Disconnect-Request; on a loaded machine the client may also have retransmitted it (RFC 5176:
      // the same request again when the answer is late), never anything else.
      assert.ok(nas.received.length >= 1, "the gateway got the Disconnect-Request");
      for (const got of nas.received) {
        assert.equal(got.code, "Disconnect-Request");
        assert.equal(got.attributes["Acct-Session-Id"], "console-live-1");
      }
      await page.close();
    });
  });
}
