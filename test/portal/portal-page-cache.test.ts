/**
 * Login pages are rendered from memory (look-ups and page kept while the catalogue does not
 * change): each guest still gets a page of their own (nonce, signed state), and a change made
 * through the API shows at once, on this instance and on another one sharing the PostgreSQL database.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { buildApp } from "../../src/app.js";
import { catalogueListenerPid, changeGeneration, createDatabase } from "../../src/db/database.js";
import type { DB } from "../../src/db/database.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { PortalClient, type World, coovaUrl, makeWorld, stateOf } from "./portal-world.js";
import { waitUntil } from "../helpers/wait.js";

const titleOf = (html: string) => /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1];
const nonceOf = (html: string) => /<style nonce="([^"]+)"/.exec(html)?.[1];

for (const dialect of DIALECTS) {
  describe(`login page from memory (${dialect})`, () => {
    let t: TestApp;
    let w: World;
    before(async () => {
      t = await createTestApp(dialect);
      w = await makeWorld(t, { title_text: "First title" });
    });
    after(async () => t.close());

    const page = (client = new PortalClient(t.app)) => client.get(coovaUrl(w.url, { called: w.apMac, mac: "02:00:00:00:00:07" }));

    it("gives every guest a nonce and a signed state of their own, and the state logs in", async () => {
      const a = await page();
      const b = await page();
      assert.equal(a.statusCode, 200, a.body);
      assert.equal(titleOf(a.body), "First title");
      assert.notEqual(nonceOf(a.body), nonceOf(b.body));
      assert.notEqual(stateOf(a.body), stateOf(b.body));
      assert.match(String(a.headers["content-security-policy"]), new RegExp(`style-src 'nonce-${nonceOf(a.body)?.replace(/[+/]/g, "\\$&")}'`));
      // The language switcher's links repeat each guest's own gateway query.
      const blank = (html: string) =>
        html.split(nonceOf(html)!).join("N").split(stateOf(html)).join("S").replace(/href="\?[^"]*lang=/g, 'href="?Qlang=');
      assert.equal(blank(a.body), blank(b.body), "the same page but for nonce and state");
      const client = new PortalClient(t.app);
      const shown = await page(client);
      const login = await client.post("/portal/login/custom", { state: stateOf(shown.body), name: "Cached Guest", email: "cached@example.com" });
      assert.equal(login.statusCode, 303, login.body);
    });

    it("shows a campaign change, and another campaign assigned, on the next page view", async () => {
      assert.equal(titleOf((await page()).body), "First title");
      const res = await t.call("POST", "create-or-update-campaign", { campaign_id: w.campaignId, name: "Cafe", title_text: "Second title" });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      assert.equal(titleOf((await page()).body), "Second title");
      const other = await t.call("POST", "create-or-update-campaign", { template_campaign_id: 1, name: "Other", title_text: "Other campaign" });
      assert.equal(other.statusCode, 200, JSON.stringify(other.body));
      const assign = await t.call("POST", "location-assign-campaign", { location_id: w.locationId, campaign_id: other.body.campaign_id });
      assert.equal(assign.statusCode, 200, JSON.stringify(assign.body));
      assert.equal(titleOf((await page()).body), "Other campaign");
    });
  });
}

if (DIALECTS.includes("postgres")) {
  describe("login page from memory, two instances on one PostgreSQL database", () => {
    let t: TestApp;
    let bDb: DB;
    let b: Awaited<ReturnType<typeof buildApp>>;
    let w: World;
    before(async () => {
      t = await createTestApp("postgres");
      bDb = createDatabase(t.url, { searchPath: t.schema, poolSize: 3 });
      b = await buildApp({ config: t.config, db: bDb, logger: false });
      await b.ready();
      w = await makeWorld(t, { title_text: "Seen on B" });
    });
    after(async () => {
      await b.close();
      await bDb.destroy();
      await t.close();
    });

    it("B shows A's change to the campaign right after A answered", async () => {
      const onB = async () => {
        const res = await new PortalClient(b).get(coovaUrl(w.url, { called: w.apMac, mac: "02:00:00:00:00:08" }));
        assert.equal(res.statusCode, 200, res.body);
        return titleOf(res.body);
      };
      // B keeps the page from memory once it listens for changes (it starts to on first use).
      assert.equal(await onB(), "Seen on B");
      await waitUntil("B listens for catalogue changes", () => catalogueListenerPid(bDb) !== undefined);
      assert.equal(await onB(), "Seen on B");
      for (const title of ["Changed on A", "Changed again on A"]) {
        const seen = changeGeneration(bDb, true);
        const res = await t.call("POST", "create-or-update-campaign", { campaign_id: w.campaignId, name: "Cafe", title_text: title });
        assert.equal(res.statusCode, 200, JSON.stringify(res.body));
        // B learns of the change from PostgreSQL's notification: wait for that, not for some time.
        await waitUntil("B is told of A's change", () => changeGeneration(bDb, true) !== seen);
        assert.equal(await onB(), title, "the first page B serves once told is the new one");
      }
    });
  });
}
