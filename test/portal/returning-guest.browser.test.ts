/**
 * A returning guest whose phone shows up with a new, private MAC address, in Debian's headless
 * Chromium: the first visit logs in with the form over a Coova stand-in; the second, from the same
 * browser but another MAC, gets "Welcome back" and reconnects in one tap without the form. The
 * guest is one guest with both MACs (and RADIUS knows the new one), and analytics count one
 * returning guest, not a new one. A fresh browser with that new MAC's neighbour sees the form.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser, BrowserContext } from "playwright-core";
import { localDay } from "../../src/modules/guests/local-day.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { launchChromium } from "../helpers/browser.js";
import { DIALECTS } from "../helpers/db.js";
import { coovaUrl, makeWorld, randomMac, setApAddress } from "./portal-world.js";
import { type StandIn, startGatewayStandIn } from "./stand-ins.js";
import { freeTcpPort } from "../helpers/ports.js";

const UAM_SECRET = "returning-uam-secret";
const CHALLENGE = "0f1e2d3c4b5a69788796a5b4c3d2e1f0";

for (const dialect of DIALECTS) {
  describe(`returning guest with a new MAC, in Chromium (${dialect})`, () => {
    let t: TestApp;
    let browser: Browser;
    let gateway: StandIn;

    before(async () => {
      gateway = await startGatewayStandIn();
      const port = await freeTcpPort();
      t = await createTestApp(dialect, {
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        PORTAL_SECRET: "returning-portal-secret",
        COOVA_UAM_SECRET: UAM_SECRET,
        PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "1000",
      });
      await t.app.listen({ host: "127.0.0.1", port });
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t?.close();
      await gateway?.close();
    });

    const phone = (): Promise<BrowserContext> =>
      browser.newContext({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36",
      });

    it("lets the guest back in with one tap on a new MAC, links the MAC and counts one returning guest", async () => {
      const w = await makeWorld(t, { login_options: JSON.stringify({ email: 1 }) });
      await setApAddress(t, w.deviceId, "127.0.0.1");
      const coova = (mac: string) =>
        coovaUrl(w.url, { uamip: "127.0.0.1", uamport: gateway.port, challenge: CHALLENGE, called: w.apMac, mac, userurl: "http://example.org/" }, UAM_SECRET);

      const context = await phone();
      const page = await context.newPage();
      const firstMac = randomMac();
      await page.goto(coova(firstMac));
      await page.locator("#email-email").fill("rita@example.com");
      await Promise.all([page.waitForURL(`${gateway.url}/logon?**`), page.getByRole("button", { name: "Connect with e-mail" }).click()]);
      const cookie = (await context.cookies()).find((c) => c.name === `gwp_dev_${w.locationId}`);
      assert.ok(cookie, "the device cookie is set at login");
      assert.ok(cookie.httpOnly, "HttpOnly");
      assert.ok(cookie.expires > Date.now() / 1000 + 300 * 86400, "long-lived");

      // Next visit: the phone rotated its private address.
      const secondMac = randomMac();
      await page.goto(coova(secondMac));
      assert.match((await page.textContent("h1")) ?? "", /Welcome back/);
      assert.equal(await page.locator("#email-email").count(), 0, "no form to fill in again");
      const logonsBefore = gateway.requests.length;
      await Promise.all([page.waitForURL(`${gateway.url}/logon?**`), page.getByRole("button", { name: "Connect again" }).click()]);
      const logon = gateway.requests.slice(logonsBefore).find((r) => r.path === "/logon");
      assert.ok(logon?.query.get("username"), "handed to the gateway's logon with a credential, like any login");

      const guests = await t.db.selectFrom("guests").select(["id", "email"]).where("email", "=", "rita@example.com").execute();
      assert.equal(guests.length, 1, "one guest");
      const macs = await t.db.selectFrom("guest_macs").select("client_mac").where("guest_id", "=", guests[0].id).orderBy("client_mac").execute();
      assert.deepEqual(
        macs.map((m) => m.client_mac),
        [firstMac, secondMac].sort(),
        "both MACs are the guest's",
      );
      const logins = await t.db.selectFrom("logins").select(["guest_id", "client_mac"]).where("location_id", "=", w.locationId).orderBy("id").execute();
      assert.deepEqual(
        logins.map((l) => [l.guest_id, l.client_mac]),
        [
          [guests[0].id, firstMac],
          [guests[0].id, secondMac],
        ],
      );

      // Analytics: one guest (not two), who has returned once.
      const day = localDay(new Date(), "Europe/Berlin");
      const list = await t.call("GET", "social-user-list", { location_ids: String(w.locationId), from_date: day, to_date: day });
      assert.equal(list.statusCode, 200, JSON.stringify(list.body));
      assert.equal(list.body.data.length, 1, "one guest in the list");
      const newGuests = await t.db.selectFrom("daily_new_guests").select((eb) => eb.fn.sum<number>("count").as("n")).where("location_id", "=", w.locationId).executeTakeFirstOrThrow();
      assert.equal(Number(newGuests.n), 1, "counted as new once");
      const profile = await t.call("GET", "get-social-user-profile", { user_ids: String(guests[0].id) });
      assert.equal(profile.body.data[0].return, 1, "one return");
      assert.equal(profile.body.data[0].user_mac, secondMac, "the latest MAC");
      assert.deepEqual([...profile.body.data[0].user_macs].sort(), [firstMac, secondMac].sort(), "every MAC on the profile");

      // "Not me": the cookie goes, and the usual login page is shown.
      await page.goto(coova(randomMac()));
      await page.getByRole("button", { name: "Not me: show the login page" }).click();
      assert.equal(await page.locator("#email-email").count(), 1);
      assert.equal((await context.cookies()).find((c) => c.name === `gwp_dev_${w.locationId}`), undefined);
      await context.close();
    });

    it("lets a returning guest straight back in, no tap, where the campaign asks nothing (click-through)", async () => {
      const w = await makeWorld(t, { login_options: JSON.stringify({ clickthrough: 1 }) });
      await setApAddress(t, w.deviceId, "127.0.0.1");
      const coova = (mac: string) =>
        coovaUrl(w.url, { uamip: "127.0.0.1", uamport: gateway.port, challenge: CHALLENGE, called: w.apMac, mac, userurl: "http://example.org/" }, UAM_SECRET);
      const context = await phone();
      const page = await context.newPage();
      const firstMac = randomMac();
      await page.goto(coova(firstMac));
      await page.locator("#ct-terms").check();
      await Promise.all([page.waitForURL(`${gateway.url}/logon?**`), page.getByRole("button", { name: "Connect", exact: true }).last().click()]);
      const secondMac = randomMac();
      // The page itself hands the guest to the gateway: nothing to tap.
      await page.goto(coova(secondMac));
      assert.match(page.url(), new RegExp(`^${gateway.url}/logon\\?`));
      const logins = await t.db.selectFrom("logins").select(["guest_id", "client_mac"]).where("location_id", "=", w.locationId).orderBy("id").execute();
      assert.equal(logins.length, 2);
      assert.equal(logins[0].guest_id, logins[1].guest_id, "the same guest");
      assert.deepEqual(
        logins.map((l) => l.client_mac),
        [firstMac, secondMac],
      );
      const macs = await t.db.selectFrom("guest_macs").select("client_mac").where("guest_id", "=", logins[0].guest_id).execute();
      assert.equal(macs.length, 2, "both MACs are the guest's");
      const newGuests = await t.db.selectFrom("daily_new_guests").select((eb) => eb.fn.sum<number>("count").as("n")).where("location_id", "=", w.locationId).executeTakeFirstOrThrow();
      assert.equal(Number(newGuests.n), 1, "one new guest");
      await context.close();
    });

    it("shows the form to another browser, and to a forged or other location's cookie", async () => {
      const w = await makeWorld(t, { login_options: JSON.stringify({ email: 1 }) });
      const other = await makeWorld(t, { login_options: JSON.stringify({ email: 1 }) });
      await setApAddress(t, w.deviceId, "127.0.0.1");
      await setApAddress(t, other.deviceId, "127.0.0.1");
      const url = (world: typeof w, mac: string) =>
        coovaUrl(world.url, { uamip: "127.0.0.1", uamport: gateway.port, challenge: CHALLENGE, called: world.apMac, mac, userurl: "http://example.org/" }, UAM_SECRET);
      const context = await phone();
      const page = await context.newPage();
      await page.goto(url(w, randomMac()));
      await page.locator("#email-email").fill("sam@example.com");
      await Promise.all([page.waitForURL(`${gateway.url}/logon?**`), page.getByRole("button", { name: "Connect with e-mail" }).click()]);
      // The other location does not know this browser.
      await page.goto(url(other, randomMac()));
      assert.equal(await page.locator("#email-email").count(), 1);
      // A cookie copied under the other location's name is refused (it names its own location).
      const mine = (await context.cookies()).find((c) => c.name === `gwp_dev_${w.locationId}`)!;
      await context.addCookies([{ ...mine, name: `gwp_dev_${other.locationId}` }]);
      await page.goto(url(other, randomMac()));
      assert.equal(await page.locator("#email-email").count(), 1);
      // A tampered cookie is refused.
      await context.addCookies([{ ...mine, value: `${mine.value.slice(0, -2)}xx` }]);
      await page.goto(url(w, randomMac()));
      assert.equal(await page.locator("#email-email").count(), 1);
      await context.close();

      const fresh = await phone();
      const p2 = await fresh.newPage();
      await p2.goto(url(w, randomMac()));
      assert.equal(await p2.locator("#email-email").count(), 1, "a new browser sees the form");
      await fresh.close();
    });
  });
}
