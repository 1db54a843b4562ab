import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { RECORD_KEYS, makeCampaign, templateId } from "./campaign-fixtures.js";

const ALL_METHODS = "facebook, custom, twitter, instagram, linkedin, email, sms, clickthrough, voucher";

for (const dialect of DIALECTS) {
  describe(`create-or-update-campaign (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(async () => t.close());

    it("creates a campaign from a built-in template with a form body", async () => {
      const tpl = await templateId(t, "CustomFormLogin");
      const res = await t.call("POST", "create-or-update-campaign", {
        name: "Summer2026",
        template_campaign_id: tpl,
        title_text: "Hello guests",
        text_color: "FF0000",
        ssid: "Cafe#1",
      });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      const b = res.body;
      assert.equal(b.status, "success");
      assert.equal(b.message, "Campaign has been created successfully.");
      assert.equal(typeof b.campaign_id, "number");
      assert.match(b.campaign_filename, /^c-[A-Za-z0-9_-]{12}\.html$/);
      assert.equal(b.campaign_url, `http://portal.test/portal/c/${b.campaign_filename}`);
      assert.deepEqual(Object.keys(b.data).sort(), RECORD_KEYS);
      const d = b.data;
      assert.equal(d.id, b.campaign_id);
      assert.equal(d.campaign_id, b.campaign_id);
      assert.equal(d.campaign_filename, b.campaign_filename);
      assert.equal(d.name, "Summer2026");
      assert.equal(d.ssid, "Cafe#1");
      assert.equal(d.template, 0);
      assert.equal(d.deleted, 0);
      assert.equal(d.title_text, "Hello guests");
      assert.equal(d.text_color, "ff0000");
      // Not given: copied from the template.
      assert.equal(d.background, "f5f7fa");
      assert.equal(d.footer_text, "Free WiFi for our guests");
      assert.equal(d.login_custom, "1");
      assert.equal(d.login_facebook, "0");
      assert.equal(d.login_options.custom, true);
      assert.equal(d.login_options.clickthrough, false);
      assert.match(d.date_created, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      const payload = JSON.parse(d.payload);
      assert.equal(payload.version, 1);
      assert.equal(payload.ssid, "Cafe#1");
      assert.equal(payload.title_text, "Hello guests");
      assert.equal(payload.text_color, "ff0000");
      assert.deepEqual(payload.login_options, d.login_options);
    });

    it("creates from the caller's own campaign with a JSON body; login_options replaces the methods", async () => {
      const social = await templateId(t, "SocialLogin");
      const a = await makeCampaign(t, { name: "Source", template_campaign_id: social, title_text: "From A" });
      assert.equal(a.data.login_facebook, "1");
      const res = await t.call(
        "POST",
        "create-or-update-campaign",
        { name: "Copy", template_campaign_id: a.campaign_id, login_options: { custom: true, email: 1, sms: "0" } },
        { as: "json" },
      );
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      const d = res.body.data;
      assert.equal(d.title_text, "From A");
      assert.notEqual(res.body.campaign_filename, a.campaign_filename);
      assert.deepEqual(d.login_options, {
        facebook: false,
        custom: true,
        twitter: false,
        instagram: false,
        linkedin: false,
        email: true,
        sms: false,
        clickthrough: false,
        voucher: false,
      });
      assert.equal(d.login_custom, "1");
      assert.equal(d.login_facebook, "0");
    });

    it("keeps the consent settings: terms required, the marketing opt-in and its text; an update changes only those given", async () => {
      const c = await makeCampaign(t, { terms_required: "1", marketing_opt_in: "1", marketing_text: "  Send me the weekly menu.  ", login_options: '{"voucher":1}' });
      assert.equal(c.data.terms_required, 1);
      assert.equal(c.data.marketing_opt_in, 1);
      assert.equal(c.data.marketing_text, "Send me the weekly menu.");
      assert.equal(c.data.login_options.voucher, true);
      assert.equal(JSON.parse(c.data.payload).consent.terms_required, true);
      const up = await t.call("POST", "create-or-update-campaign", { campaign_id: c.campaign_id, name: "Campaign", marketing_opt_in: "0" });
      assert.equal(up.statusCode, 200, JSON.stringify(up.body));
      assert.equal(up.body.data.terms_required, 1);
      assert.equal(up.body.data.marketing_opt_in, 0);
      assert.equal(up.body.data.marketing_text, "Send me the weekly menu.");
      const plain = await makeCampaign(t);
      assert.equal(plain.data.terms_required, 0);
      assert.equal(plain.data.marketing_opt_in, 0);
      const bad = await t.call("POST", "create-or-update-campaign", { campaign_id: c.campaign_id, name: "Campaign", terms_required: "yes", marketing_text: "x".repeat(1001) });
      assert.equal(bad.statusCode, 400);
      assert.deepEqual(bad.body.message.terms_required, ["The terms_required must be one of: 0, 1."]);
      assert.deepEqual(bad.body.message.marketing_text, ["The marketing_text may not be greater than 1000 characters."]);
      const after = await t.call("GET", "get-campaign", { campaign_ids: c.campaign_id });
      assert.equal(after.body.data[0].terms_required, 1, "a refused update writes nothing");
    });

    it("lets login_options in a form override every login_*, and login_* alone change only the methods named", async () => {
      const over = await makeCampaign(t, { login_options: '{"facebook":1,"linkedin":true}', login_custom: "1", login_twitter: "1" });
      assert.equal(over.data.login_facebook, "1");
      assert.equal(over.data.login_linkedin, "1");
      assert.equal(over.data.login_custom, "0");
      assert.equal(over.data.login_twitter, "0");
      const flags = await makeCampaign(t, { login_facebook: "1", login_instagram: 0 });
      assert.equal(flags.data.login_custom, "1", "the template's method stays on");
      assert.equal(flags.data.login_facebook, "1");
      assert.equal(flags.data.login_instagram, "0");
      const blank = await makeCampaign(t, { login_options: "  ", login_twitter: "1" });
      assert.equal(blank.data.login_twitter, "1", "a blank login_options field counts as not given");
    });

    it("refuses bad login_options and login_* values, each with its own sentence", async () => {
      const tpl = await templateId(t, "CustomFormLogin");
      const cases: [unknown, string][] = [
        ["{facebook:1", "The login_options must be a valid JSON string."],
        ['{"myspace":1}', `The login_options contains an unknown key "myspace"; allowed keys: ${ALL_METHODS}.`],
        ['{"facebook":"yes"}', "The login_options value of facebook must be one of: 0, 1, true, false."],
        ['{"facebook":2}', "The login_options value of facebook must be one of: 0, 1, true, false."],
        ["[1]", "The login_options must be a JSON object."],
        ["null", "The login_options must be a JSON object."],
        ['{"facebook":0,"custom":false}', "The login_options must leave at least one login method enabled."],
        ["{}", "The login_options must leave at least one login method enabled."],
        [`{"custom":1,"x":"${"a".repeat(2000)}"}`, "The login_options may not be greater than 2000 characters."],
      ];
      for (const [value, sentence] of cases) {
        const res = await t.call("POST", "create-or-update-campaign", { name: "Bad", template_campaign_id: tpl, login_options: value });
        assert.equal(res.statusCode, 400, String(value));
        assert.deepEqual(res.body, { status: "error", message: { login_options: [sentence] } }, String(value));
      }
      const json = await t.call("POST", "create-or-update-campaign", { name: "Bad", template_campaign_id: tpl, login_options: 5 }, { as: "json" });
      assert.deepEqual(json.body.message, { login_options: ["The selected login_options is invalid."] });
      const flag = await t.call("POST", "create-or-update-campaign", { name: "Bad", template_campaign_id: tpl, login_facebook: "2" });
      assert.deepEqual(flag.body.message, { login_facebook: ["The login_facebook must be one of: 0, 1."] });
      const off = await t.call("POST", "create-or-update-campaign", { name: "Bad", template_campaign_id: tpl, login_custom: "0" });
      assert.deepEqual(off.body.message, { login_options: ["The login_options must leave at least one login method enabled."] });
    });

    it("reports every failing field at once and writes nothing", async () => {
      const before = await t.call("GET", "campaign-list");
      const res = await t.call("POST", "create-or-update-campaign", {
        name: "Bad\u0007Name",
        template_campaign_id: 999999,
        ssid: "my\tssid",
        text_color: "zzz",
        background: "#fff",
        redirect_url: "ftp://example.com/",
        title_text: "t".repeat(256),
        custom_terms: "c".repeat(20001),
        login_linkedin: "yes",
      });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.body.message, {
        name: ["The name format is invalid."],
        template_campaign_id: ["The selected template_campaign_id is invalid."],
        ssid: ["The ssid format is invalid."],
        text_color: ["The text_color format is invalid."],
        background: ["The background format is invalid."],
        redirect_url: ["The redirect_url must be a valid URL starting with http:// or https://."],
        title_text: ["The title_text may not be greater than 255 characters."],
        custom_terms: ["The custom_terms may not be greater than 20000 characters."],
        login_linkedin: ["The login_linkedin must be one of: 0, 1."],
      });
      const tpl = await templateId(t, "CustomFormLogin");
      const notUrl = await t.call("POST", "create-or-update-campaign", { name: "X", template_campaign_id: tpl, redirect_url: "example.com" });
      assert.deepEqual(notUrl.body.message.redirect_url, ["The redirect_url must be a valid URL starting with http:// or https://."]);
      const long = await t.call("POST", "create-or-update-campaign", { name: "n".repeat(101) });
      assert.deepEqual(long.body.message, {
        name: ["The name may not be greater than 100 characters."],
        template_campaign_id: ["The template_campaign_id field is required."],
      });
      const missing = await t.call("POST", "create-or-update-campaign", { template_campaign_id: tpl });
      assert.deepEqual(missing.body.message, { name: ["The name field is required."] });
      const afterList = await t.call("GET", "campaign-list");
      assert.equal(afterList.body.data.length, before.body.data.length);
    });

    it("stores custom_terms HTML exactly as given", async () => {
      const terms = '<p class="t">Be nice. <a href="https://example.com/terms">Terms</a> <script>alert(1)</script></p>';
      const c = await makeCampaign(t, { custom_terms: terms });
      assert.equal(c.data.custom_terms, terms);
      assert.equal(JSON.parse(c.data.payload).custom_terms, terms);
    });

    it("updates only the fields given; the file name stays", async () => {
      const c = await makeCampaign(t, { title_text: "T1", footer_text: "F1", text_color: "111111", redirect_url: "https://example.com/after" });
      const res = await t.call("POST", "create-or-update-campaign", { campaign_id: c.campaign_id, name: "Renamed", background: "000000" });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      assert.equal(res.body.message, "Campaign has been updated successfully.");
      assert.equal(res.body.campaign_id, c.campaign_id);
      assert.equal(res.body.campaign_filename, c.campaign_filename);
      const d = res.body.data;
      assert.equal(d.name, "Renamed");
      assert.equal(d.background, "000000");
      assert.equal(d.title_text, "T1");
      assert.equal(d.footer_text, "F1");
      assert.equal(d.text_color, "111111");
      assert.equal(d.redirect_url, "https://example.com/after");
      assert.equal(d.login_custom, "1");
      assert.equal(d.date_created, c.data.date_created);
      const cleared = await t.call("POST", "create-or-update-campaign", { campaign_id: c.campaign_id, name: "Renamed", redirect_url: "" }, { as: "json" });
      assert.equal(cleared.body.data.redirect_url, "");
      assert.equal(cleared.body.data.title_text, "T1");
      const noName = await t.call("POST", "create-or-update-campaign", { campaign_id: c.campaign_id, title_text: "T2" });
      assert.deepEqual(noName.body.message, { name: ["The name field is required."] });
      const read = await t.call("GET", "get-campaign", { campaign_ids: String(c.campaign_id) });
      assert.equal(read.body.data[0].title_text, "T1", "a refused update writes nothing");
    });

    it("refuses to update templates, other accounts' and unknown campaigns, or to copy another account's", async () => {
      const other = await t.newAccount();
      const mine = await makeCampaign(t);
      const theirs = await makeCampaign(t, {}, other.identifier);
      const tpl = await templateId(t, "ClickThrough");
      for (const id of [tpl, theirs.campaign_id, 999999]) {
        const res = await t.call("POST", "create-or-update-campaign", { campaign_id: id, name: "Hijack" });
        assert.equal(res.statusCode, 400);
        assert.deepEqual(res.body.message, { campaign_id: ["The selected campaign_id is invalid."] });
      }
      const copy = await t.call("POST", "create-or-update-campaign", { name: "Copy", template_campaign_id: mine.campaign_id }, { identifier: other.identifier });
      assert.deepEqual(copy.body.message, { template_campaign_id: ["The selected template_campaign_id is invalid."] });
      const read = await t.call("GET", "get-campaign", { campaign_ids: String(tpl) });
      assert.equal(read.body.data[0].name, "ClickThrough", "the template is untouched");
    });
  });
}
