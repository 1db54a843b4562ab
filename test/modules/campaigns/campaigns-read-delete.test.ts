import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { makeLocation, makeSubUser } from "../../helpers/sub-users.js";
import { RECORD_KEYS, makeCampaign, templateId } from "./campaign-fixtures.js";

for (const dialect of DIALECTS) {
  describe(`campaign reads and deletes (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(async () => t.close());

    it("get-campaign answers own campaigns and templates in the order given", async () => {
      const a = await makeCampaign(t, { name: "First" });
      const b = await makeCampaign(t, { name: "Second" });
      const tpl = await templateId(t, "SocialLogin");
      const res = await t.call("GET", "get-campaign", { campaign_ids: ` ${b.campaign_id}, ${tpl},${a.campaign_id},${b.campaign_id}` });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      assert.equal(res.body.status, "success");
      assert.deepEqual(
        res.body.data.map((c: { id: number }) => c.id),
        [b.campaign_id, tpl, a.campaign_id],
      );
      assert.deepEqual(Object.keys(res.body.data[0]).sort(), RECORD_KEYS);
      assert.equal(res.body.data[0].name, "Second");
      assert.equal(res.body.data[1].template, 1);
      assert.equal(res.body.data[1].login_facebook, "1");
      assert.equal(res.body.data[2].template, 0);
      const one = await t.call("GET", "get-campaign", { campaign_ids: String(a.campaign_id) });
      assert.equal(one.body.data.length, 1);
    });

    it("get-campaign refuses 11 ids, malformed lists, missing ids and other accounts' campaigns", async () => {
      const eleven = Array.from({ length: 11 }, (_, i) => i + 1).join(",");
      const many = await t.call("GET", "get-campaign", { campaign_ids: eleven });
      assert.equal(many.statusCode, 400);
      assert.deepEqual(many.body.message, { campaign_ids: ["The campaign_ids may not contain more than 10 ids."] });
      const ten = await t.call("GET", "get-campaign", { campaign_ids: "1,2,3,1,2,3,1,2,3,1,2" });
      assert.equal(ten.statusCode, 200, "duplicates count once");
      for (const bad of ["1,,2", "abc", "0", "-1", "1.5"]) {
        const res = await t.call("GET", "get-campaign", { campaign_ids: bad });
        assert.deepEqual(res.body.message, { campaign_ids: ["The campaign_ids format is invalid."] }, bad);
      }
      const missing = await t.call("GET", "get-campaign", {});
      assert.deepEqual(missing.body.message, { campaign_ids: ["The campaign_ids field is required."] });
      const other = await t.newAccount();
      const theirs = await makeCampaign(t, {}, other.identifier);
      const mine = await makeCampaign(t);
      const res = await t.call("GET", "get-campaign", { campaign_ids: `${mine.campaign_id},${theirs.campaign_id}` });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.body.message, { campaign_ids: ["The selected campaign_ids is invalid."] });
    });

    it("campaign-list shows the templates and the caller's own campaigns, ordered by id", async () => {
      const other = await t.newAccount();
      const theirs = await makeCampaign(t, { name: "Theirs" }, other.identifier);
      const mine = await makeCampaign(t, { name: "Mine" });
      const res = await t.call("GET", "campaign-list");
      assert.equal(res.statusCode, 200);
      const ids = res.body.data.map((c: { id: number }) => c.id);
      assert.deepEqual(ids, [...ids].sort((x: number, y: number) => x - y));
      assert.ok(ids.includes(mine.campaign_id), "the caller's campaign is listed");
      assert.ok(!ids.includes(theirs.campaign_id), "another account's campaign is not listed");
      const templates = res.body.data.filter((c: { template: number }) => c.template === 1).map((c: { name: string }) => c.name);
      assert.deepEqual(templates, ["CustomFormLogin", "SocialLogin", "ClickThrough"]);
      assert.ok(res.body.data.filter((c: { template: number }) => c.template === 0).every((c: { deleted: number }) => c.deleted === 0), "no deleted campaign is listed");
      const theirList = await t.call("GET", "campaign-list", {}, { identifier: other.identifier });
      const theirIds = theirList.body.data.map((c: { id: number }) => c.id);
      assert.ok(theirIds.includes(theirs.campaign_id), "the other account sees its campaign");
      assert.ok(!theirIds.includes(mine.campaign_id), "the other account does not see mine");
    });

    it("soft-deletes: get shows deleted 1, list hides it, update, copy and assign refuse it, defaults are cleared", async () => {
      const c = await makeCampaign(t, { name: "Doomed" });
      const id = c.campaign_id;
      const loc1 = await makeLocation(t);
      const loc2 = await makeLocation(t);
      for (const loc of [loc1, loc2]) {
        const assign = await t.call("POST", "location-assign-campaign", { location_id: loc, campaign_id: id });
        assert.equal(assign.statusCode, 200, JSON.stringify(assign.body));
      }
      const del = await t.call("POST", "delete-campaign", { campaign_id: id });
      assert.equal(del.statusCode, 200, JSON.stringify(del.body));
      assert.deepEqual(del.body, { status: "success", message: "Campaign has been successfully deleted." });

      const read = await t.call("GET", "get-campaign", { campaign_ids: String(id) });
      assert.equal(read.statusCode, 200);
      assert.equal(read.body.data[0].deleted, 1);
      assert.equal(read.body.data[0].name, "Doomed");
      const list = await t.call("GET", "campaign-list");
      assert.ok(!list.body.data.some((x: { id: number }) => x.id === id), "the deleted campaign is not listed");
      const locs = await t.call("GET", "get-location", { location_ids: `${loc1},${loc2}` });
      assert.deepEqual(
        locs.body.data.map((l: { default_campaign_id: number }) => l.default_campaign_id),
        [0, 0],
      );

      const invalid = { campaign_id: ["The selected campaign_id is invalid."] };
      const upd = await t.call("POST", "create-or-update-campaign", { campaign_id: id, name: "Back" });
      assert.deepEqual(upd.body.message, invalid);
      const assign = await t.call("POST", "location-assign-campaign", { location_id: loc1, campaign_id: id });
      assert.deepEqual(assign.body.message, invalid);
      const copy = await t.call("POST", "create-or-update-campaign", { name: "Copy", template_campaign_id: id });
      assert.deepEqual(copy.body.message, { template_campaign_id: ["The selected template_campaign_id is invalid."] });
      const again = await t.call("POST", "delete-campaign", { campaign_id: id });
      assert.deepEqual(again.body.message, invalid);
    });

    it("deleting clears the default only where that campaign was set, in the caller's account", async () => {
      const keep = await makeCampaign(t, { name: "Keep" });
      const gone = await makeCampaign(t, { name: "Gone" });
      const locKeep = await makeLocation(t);
      const locGone = await makeLocation(t);
      await t.call("POST", "location-assign-campaign", { location_id: locKeep, campaign_id: keep.campaign_id });
      await t.call("POST", "location-assign-campaign", { location_id: locGone, campaign_id: gone.campaign_id });
      await t.call("POST", "delete-campaign", { campaign_id: gone.campaign_id });
      const locs = await t.call("GET", "get-location", { location_ids: `${locKeep},${locGone}` });
      assert.deepEqual(
        locs.body.data.map((l: { default_campaign_id: number }) => l.default_campaign_id),
        [keep.campaign_id, 0],
      );
    });

    it("refuses to delete templates, other accounts' and unknown campaigns", async () => {
      const other = await t.newAccount();
      const theirs = await makeCampaign(t, {}, other.identifier);
      for (const id of [await templateId(t, "CustomFormLogin"), theirs.campaign_id, 999999]) {
        const res = await t.call("POST", "delete-campaign", { campaign_id: id }, { as: "json" });
        assert.equal(res.statusCode, 400);
        assert.deepEqual(res.body, { status: "error", message: { campaign_id: ["The selected campaign_id is invalid."] } });
      }
      const missing = await t.call("POST", "delete-campaign", {});
      assert.deepEqual(missing.body.message, { campaign_id: ["The campaign_id field is required."] });
      const stillThere = await t.call("GET", "get-campaign", { campaign_ids: String(theirs.campaign_id) }, { identifier: other.identifier });
      assert.equal(stillThere.body.data[0].deleted, 0);
    });

    it("read-only sub-users may read campaigns but not write them; other sub-users write into the parent's account", async () => {
      const ro = await makeSubUser(t, { readonly: true });
      const rw = await makeSubUser(t, { readonly: false });
      const c = await makeCampaign(t, { name: "Parents" });
      const tpl = await templateId(t, "CustomFormLogin");
      const readOnly = { status: "error", message: { identifier: ["This identifier is read-only."] } };
      const writes: [string, Record<string, unknown>][] = [
        ["create-or-update-campaign", { name: "Nope", template_campaign_id: tpl }],
        ["create-or-update-campaign", { name: "Nope", campaign_id: c.campaign_id }],
        ["delete-campaign", { campaign_id: c.campaign_id }],
      ];
      for (const [path, params] of writes) {
        const res = await t.call("POST", path, params, { identifier: ro.identifier });
        assert.equal(res.statusCode, 400, path);
        assert.deepEqual(res.body, readOnly, path);
      }
      const list = await t.call("GET", "campaign-list", {}, { identifier: ro.identifier });
      assert.equal(list.statusCode, 200);
      assert.ok(list.body.data.some((x: { id: number }) => x.id === c.campaign_id), "the read-only sub-user lists the parent's campaign");
      const get = await t.call("GET", "get-campaign", { campaign_ids: String(c.campaign_id) }, { identifier: ro.identifier });
      assert.equal(get.body.data[0].name, "Parents");

      const made = await makeCampaign(t, { name: "BySubUser" }, rw.identifier);
      const parentView = await t.call("GET", "get-campaign", { campaign_ids: String(made.campaign_id) });
      assert.equal(parentView.statusCode, 200);
      assert.equal(parentView.body.data[0].name, "BySubUser");
      const del = await t.call("POST", "delete-campaign", { campaign_id: made.campaign_id }, { identifier: rw.identifier });
      assert.equal(del.statusCode, 200);
    });
  });
}
