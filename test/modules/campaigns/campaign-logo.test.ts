/**
 * A campaign's logo through the API and the portal, on SQLite and PostgreSQL: a valid logo goes in
 * and comes back unchanged, the portal serves it at its hashed address with long-lived caching (and
 * 404 for any other), the login page links it rather than carrying it; every hostile logo is a 400
 * in the API's words and leaves the campaign as it was.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { LOGO_MAX_BYTES } from "../../../src/modules/campaigns/campaign-logo.js";
import { type TestApp, createTestApp, locationParams } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { PNG_1X1, makeCampaign } from "./campaign-fixtures.js";

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 7)]);
const WEBP = Buffer.concat([Buffer.from("RIFF"), Buffer.from([40, 0, 0, 0]), Buffer.from("WEBPVP8 "), Buffer.alloc(32, 1)]);
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString("base64")}`;

for (const dialect of DIALECTS) {
  describe(`campaign logo (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(async () => t.close());

    const get = (url: string, accept = "image/avif,image/webp,*/*") => t.app.inject({ method: "GET", url, headers: { accept } });
    const pathOf = (url: string) => new URL(url).pathname;

    it("takes a PNG, JPEG or WebP logo and gives it back unchanged, in a form or a JSON body", async () => {
      const png = dataUrl("image/png", PNG_1X1);
      const created = await makeCampaign(t, { logo: png });
      assert.equal(JSON.parse(created.data.payload).logo, png);
      assert.match(created.data.logo_url, new RegExp(`^http://portal\\.test/portal/logo/${created.campaign_filename.replace(/\./g, "\\.")}/[0-9a-f]{16}\\.png$`));
      const read = await t.call("GET", "get-campaign", { campaign_ids: created.campaign_id });
      assert.equal(JSON.parse(read.body.data[0].payload).logo, png);
      assert.equal(read.body.data[0].logo_url, created.data.logo_url);

      const served = await get(pathOf(created.data.logo_url));
      assert.equal(served.statusCode, 200);
      assert.deepEqual(served.rawPayload, PNG_1X1);
      assert.equal(served.headers["content-type"], "image/png");
      assert.equal(served.headers["cache-control"], "public, max-age=31536000, immutable");
      assert.equal(served.headers["x-content-type-options"], "nosniff");
      assert.match(String(served.headers["content-security-policy"]), /default-src 'none'/);

      for (const [type, bytes, ext] of [
        ["image/jpeg", JPEG, "jpg"],
        ["image/webp", WEBP, "webp"],
      ] as const) {
        const res = await t.call("POST", "create-or-update-campaign", { campaign_id: created.campaign_id, name: "Campaign", logo: dataUrl(type, bytes) }, { as: "json" });
        assert.equal(res.statusCode, 200, JSON.stringify(res.body));
        assert.ok(res.body.data.logo_url.endsWith(`.${ext}`));
        const img = await get(pathOf(res.body.data.logo_url));
        assert.equal(img.statusCode, 200);
        assert.equal(img.headers["content-type"], type);
        assert.deepEqual(img.rawPayload, bytes);
      }
    });

    it("links the logo from the login page (never inline), under a CSP that allows only its own images", async () => {
      const png = dataUrl("image/png", PNG_1X1);
      const created = await makeCampaign(t, { logo: png, ssid: "HarbourWiFi" });
      const loc = await t.call("POST", "create-or-update-location", locationParams({ location_name: "Harbour Cafe" }));
      assert.equal(loc.statusCode, 200, JSON.stringify(loc.body));
      const slugUrl = (await t.call("GET", "get-location", { location_ids: loc.body.location_id })).body.data[0].url as string;
      const before = await get(pathOf(slugUrl), "text/html");
      assert.equal(before.statusCode, 200);
      assert.ok(!before.body.includes('class="logo"'), "the built-in page has no logo");
      // The location's page (kept by the page cache) shows the campaign's logo once assigned.
      await t.call("POST", "location-assign-campaign", { location_id: loc.body.location_id, campaign_id: created.campaign_id });
      const page = await get(pathOf(slugUrl), "text/html");
      const logoPath = pathOf(created.data.logo_url);
      assert.ok(page.body.includes(`<img class="logo" src="${logoPath}" alt="Harbour Cafe">`), page.body.slice(0, 800));
      assert.ok(!page.body.includes("base64"), "the image is not inlined");
      assert.match(String(page.headers["content-security-policy"]), /img-src 'self';/);
      const campaignPage = await get(`/portal/c/${created.campaign_filename}`, "text/html");
      assert.ok(campaignPage.body.includes(`<img class="logo" src="${logoPath}" alt="HarbourWiFi">`));

      // A new logo: the page links the new address at once; the old one is gone.
      const jpeg = await t.call("POST", "create-or-update-campaign", { campaign_id: created.campaign_id, name: "Campaign", logo: dataUrl("image/jpeg", JPEG) });
      const again = await get(pathOf(slugUrl), "text/html");
      assert.ok(again.body.includes(pathOf(jpeg.body.data.logo_url)));
      assert.equal((await get(logoPath)).statusCode, 404);

      // Removed: no logo on the page, its address 404.
      const removed = await t.call("POST", "create-or-update-campaign", { campaign_id: created.campaign_id, name: "Campaign", logo: "" });
      assert.equal(removed.statusCode, 200, JSON.stringify(removed.body));
      assert.equal(removed.body.data.logo_url, "");
      assert.equal(JSON.parse(removed.body.data.payload).logo, "");
      assert.ok(!(await get(pathOf(slugUrl), "text/html")).body.includes('class="logo"'));
      assert.equal((await get(pathOf(jpeg.body.data.logo_url))).statusCode, 404);
    });

    it("keeps the logo when an update does not name it", async () => {
      const png = dataUrl("image/png", PNG_1X1);
      const created = await makeCampaign(t, { logo: png });
      const res = await t.call("POST", "create-or-update-campaign", { campaign_id: created.campaign_id, name: "Renamed", title_text: "New title" });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      assert.equal(JSON.parse(res.body.data.payload).logo, png);
      assert.equal(res.body.data.logo_url, created.data.logo_url);
    });

    it("answers 404 for a logo address of no campaign, a stale hash or the wrong extension", async () => {
      const created = await makeCampaign(t, { logo: dataUrl("image/png", PNG_1X1) });
      const path = pathOf(created.data.logo_url);
      const hash = /\/([0-9a-f]{16})\.png$/.exec(path)![1];
      for (const url of [
        `/portal/logo/c-nosuchcampaign.html/${hash}.png`,
        path.replace(hash, "0".repeat(16)),
        path.replace(/\.png$/, ".jpg"),
        `/portal/logo/${created.campaign_filename}/..%2F..%2Fetc%2Fpasswd`,
        `/portal/logo/%00/${hash}.png`,
      ]) {
        const res = await get(url);
        assert.equal(res.statusCode, 404, url);
        assert.equal(res.json().status, "error");
        assert.doesNotMatch(res.body, /\n\s+at /, "no stack trace");
      }
      // A campaign with no logo, and a deleted campaign's logo.
      const plain = await makeCampaign(t);
      assert.equal(plain.data.logo_url, "");
      await t.call("POST", "delete-campaign", { campaign_id: created.campaign_id });
      assert.equal((await get(path)).statusCode, 404);
    });

    it("refuses every hostile logo with a clear sentence and stores nothing", async () => {
      const png = dataUrl("image/png", PNG_1X1);
      const created = await makeCampaign(t, { logo: png, title_text: "Before" });
      const stored = async () => t.db.selectFrom("campaigns").select(["payload", "last_modified"]).where("id", "=", created.campaign_id).executeTakeFirstOrThrow();
      const was = await stored();
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
      const big = Buffer.concat([PNG_1X1, Buffer.alloc(LOGO_MAX_BYTES, 0)]);
      const cases: [string, unknown, RegExp][] = [
        ["svg", dataUrl("image/svg+xml", svg), /^The logo must be a PNG, JPEG or WebP image; the type image\/svg\+xml is not accepted\.$/],
        ["html", dataUrl("text/html", Buffer.from("<script>alert(1)</script>")), /the type text\/html is not accepted/],
        ["gif", dataUrl("image/gif", Buffer.from("GIF89a")), /the type image\/gif is not accepted/],
        ["not a data URL", "https://example.com/logo.png", /^The logo must be a data URL of a PNG, JPEG or WebP image/],
        ["not base64 encoded", "data:image/png,%89PNG", /^The logo must be a data URL/],
        ["bad base64", "data:image/png;base64,iVBOR$$$w0KGgo=", /^The logo is not valid base64\.$/],
        ["cut base64", "data:image/png;base64,iVBORw0KGgoAA", /^The logo is not valid base64\.$/],
        ["empty image", "data:image/png;base64,", /^The logo image is empty\.$/],
        ["too large", dataUrl("image/png", big), new RegExp(`^The logo may not be larger than 200 KB \\(${LOGO_MAX_BYTES} bytes\\) once decoded; this one is ${big.length} bytes\\.$`)],
        ["svg labelled png", dataUrl("image/png", svg), /^The logo is declared as image\/png, but its content is not a PNG image\.$/],
        ["jpeg labelled png", dataUrl("image/png", JPEG), /^The logo is declared as image\/png, but its content is not a PNG image\.$/],
        ["png labelled webp", dataUrl("image/webp", PNG_1X1), /^The logo is declared as image\/webp, but its content is not a WebP image\.$/],
        ["html labelled jpeg", dataUrl("image/jpeg", Buffer.from("<html><script>alert(1)</script></html>")), /not a JPEG image/],
      ];
      for (const [label, logo, sentence] of cases) {
        for (const as of ["form", "json"] as const) {
          const res = await t.call("POST", "create-or-update-campaign", { campaign_id: created.campaign_id, name: "Changed", title_text: "After", logo }, { as });
          assert.equal(res.statusCode, 400, `${label} (${as}): ${JSON.stringify(res.body).slice(0, 300)}`);
          assert.deepEqual(Object.keys(res.body.message), ["logo"], label);
          assert.match(res.body.message.logo[0], sentence, label);
        }
      }
      // Not a string at all (a JSON body can send anything).
      const obj = await t.call("POST", "create-or-update-campaign", { campaign_id: created.campaign_id, name: "Changed", logo: { src: "x" } }, { as: "json" });
      assert.equal(obj.statusCode, 400);
      assert.deepEqual(obj.body.message, { logo: ["The logo must be a string."] });
      assert.deepEqual(await stored(), was, "nothing stored");

      // On create too: no campaign is made.
      const count = async () => (await t.db.selectFrom("campaigns").select("id").execute()).length;
      const n = await count();
      const tpl = JSON.parse(was.payload);
      assert.equal(tpl.title_text, "Before");
      const res = await t.call("POST", "create-or-update-campaign", { name: "Hostile", template_campaign_id: created.campaign_id, logo: dataUrl("image/svg+xml", svg) });
      assert.equal(res.statusCode, 400);
      assert.equal(await count(), n);
    });

    it("refuses a body past the campaign route's limit with the limit named", async () => {
      const huge = `data:image/png;base64,${"A".repeat(1100 * 1024)}`;
      const res = await t.call("POST", "create-or-update-campaign", { name: "Huge", template_campaign_id: 1, logo: huge }, { as: "json" });
      assert.equal(res.statusCode, 413);
      assert.deepEqual(res.body.message, { body: ["The request body may not be larger than 1048576 bytes."] });
      // Other routes keep BODY_LIMIT.
      const other = await t.call("POST", "create-or-update-location", locationParams({ location_name: "x".repeat(70_000) }), { as: "json" });
      assert.equal(other.statusCode, 413);
      assert.deepEqual(other.body.message, { body: [`The request body may not be larger than ${t.config.bodyLimit} bytes.`] });
    });
  });
}
