/**
 * The voucher API: create a batch, list batches and codes with filters and pages, revoke one code
 * or a batch, print a batch; isolation between accounts, read-only sub-users, and bad input that
 * writes nothing.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { VOUCHER_ALPHABET, normalizeVoucherCode } from "../../../src/modules/vouchers/voucher-codes.js";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { makeLocation, makeSubUser } from "../../helpers/sub-users.js";

const CODE_RE = new RegExp(`^[${VOUCHER_ALPHABET}]{5}-[${VOUCHER_ALPHABET}]{5}$`);

describe("voucher codes", () => {
  it("use no look-alike characters and read what a guest types leniently", () => {
    for (const ch of "0O1IL2Z5S8BUVQD") assert.ok(!VOUCHER_ALPHABET.includes(ch), ch);
    assert.equal(normalizeVoucherCode(" acefg-hjkmn "), "ACEFGHJKMN");
    assert.equal(normalizeVoucherCode("ACEFG HJKMN"), "ACEFGHJKMN");
    assert.equal(normalizeVoucherCode("ACEFG-HJKM0"), "");
    assert.equal(normalizeVoucherCode("ACEFG"), "");
  });
});

for (const dialect of DIALECTS) {
  describe(`voucher API (${dialect})`, () => {
    let t: TestApp;
    let loc: number;
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

    before(async () => {
      t = await createTestApp(dialect);
      loc = await makeLocation(t);
    });
    after(async () => t?.close());

    const counts = async () => ({
      batches: Number((await t.db.selectFrom("voucher_batches").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n),
      codes: Number((await t.db.selectFrom("vouchers").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n),
      revoked: Number(
        (await t.db.selectFrom("vouchers").select((eb) => eb.fn.countAll().as("n")).where("revoked_at", "is not", null).executeTakeFirstOrThrow()).n,
      ),
    });

    it("creates a batch of unique, readable codes with its limits, and lists it", async () => {
      const res = await t.call("POST", "create-voucher-batch", {
        location_ids: String(loc),
        count: 25,
        duration: 90,
        data_cap: 500_000_000,
        bandwidth_up: 125_000,
        bandwidth_down: 250_000,
        devices_per_code: 2,
        expires: tomorrow,
      });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      assert.equal(res.body.codes.length, 25);
      assert.equal(new Set(res.body.codes).size, 25);
      for (const code of res.body.codes) assert.match(code, CODE_RE);
      assert.deepEqual(
        { ...res.body.data, created_at: "" },
        {
          batch_id: res.body.batch_id,
          location_ids: [loc],
          count: 25,
          duration: 90,
          data_cap: 500_000_000,
          bandwidth_up: 125_000,
          bandwidth_down: 250_000,
          devices_per_code: 2,
          expires: tomorrow,
          created_at: "",
          unused: 25,
          revoked: 0,
        },
      );
      const batches = await t.call("GET", "voucher-batch-list");
      assert.equal(batches.statusCode, 200);
      assert.equal(batches.body.data[0].batch_id, res.body.batch_id);
      assert.equal(batches.body.data[0].unused, 25);

      const list = await t.call("GET", "voucher-list", { batch_id: res.body.batch_id, per_page: 10, page: 3 });
      assert.equal(list.statusCode, 200, JSON.stringify(list.body));
      assert.equal(list.body.total, 25);
      assert.equal(list.body.data.length, 5);
      assert.equal(list.body.data[0].status, "unused");
      const one = await t.call("GET", "voucher-list", { code: res.body.codes[7].toLowerCase().replace("-", " ") });
      assert.equal(one.body.total, 1);
      assert.equal(one.body.data[0].code, res.body.codes[7]);
      const atLoc = await t.call("GET", "voucher-list", { location_id: loc, status: "unused", per_page: 1000 });
      assert.ok(atLoc.body.total >= 25);
    });

    it("creates 10,000 codes in one call", async () => {
      const started = Date.now();
      const res = await t.call("POST", "create-voucher-batch", { location_ids: String(loc), count: 10_000, duration: 60 });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body).slice(0, 300));
      assert.equal(new Set(res.body.codes).size, 10_000);
      console.log(`# ${dialect}: 10,000 codes in ${Date.now() - started} ms`);
      const list = await t.call("GET", "voucher-list", { batch_id: res.body.batch_id, per_page: 1 });
      assert.equal(list.body.total, 10_000);
    });

    it("revokes one code, then a whole batch; revoked codes are listed as such", async () => {
      const res = await t.call("POST", "create-voucher-batch", { location_ids: String(loc), count: 3, duration: 30 });
      const batchId = res.body.batch_id;
      const list = await t.call("GET", "voucher-list", { batch_id: batchId });
      const first = list.body.data[0].voucher_id;
      const one = await t.call("POST", "revoke-voucher", { voucher_id: first });
      assert.equal(one.statusCode, 200, JSON.stringify(one.body));
      assert.equal(one.body.revoked, 1);
      const all = await t.call("POST", "revoke-voucher", { batch_id: batchId });
      assert.equal(all.body.revoked, 2);
      const again = await t.call("POST", "revoke-voucher", { batch_id: batchId });
      assert.equal(again.body.revoked, 0);
      const revoked = await t.call("GET", "voucher-list", { batch_id: batchId, status: "revoked" });
      assert.equal(revoked.body.total, 3);
      assert.ok(revoked.body.data.every((v: { revoked_at: string }) => v.revoked_at !== ""));
      const sheet = await t.app.inject({ method: "GET", url: `/api/voucher-sheet?identifier=${t.identifier}&batch_id=${batchId}` });
      assert.equal(sheet.statusCode, 200);
      assert.doesNotMatch(sheet.body, /class="code"/, "revoked codes are not printed");
    });

    it("prints a batch as an HTML sheet for A4 and Letter", async () => {
      const res = await t.call("POST", "create-voucher-batch", { location_ids: String(loc), count: 4, duration: 120, devices_per_code: 3, expires: tomorrow });
      for (const [paper, size] of [
        ["a4", "size: A4"],
        ["letter", "size: letter"],
      ]) {
        const sheet = await t.app.inject({ method: "GET", url: `/api/voucher-sheet?identifier=${t.identifier}&batch_id=${res.body.batch_id}&paper=${paper}` });
        assert.equal(sheet.statusCode, 200);
        assert.match(String(sheet.headers["content-type"]), /^text\/html/);
        assert.ok(sheet.body.includes(size), paper);
        for (const code of res.body.codes) assert.ok(sheet.body.includes(`<p class="code">${code}</p>`), code);
        assert.match(sheet.body, /120 minutes · 3 devices/);
        assert.match(sheet.body, new RegExp(`Valid until ${tomorrow}`));
      }
      const fr = await t.app.inject({ method: "GET", url: `/api/voucher-sheet?identifier=${t.identifier}&batch_id=${res.body.batch_id}&language=fr` });
      assert.equal(fr.statusCode, 200);
      assert.match(fr.body, /<html lang="fr" dir="ltr">/);
      assert.match(fr.body, /120 minutes · 3 appareils/);
      assert.match(fr.body, new RegExp(`Valable jusqu’au ${tomorrow}`));
      assert.match(fr.body, /Connectez-vous au réseau WiFi « [^»]+ », ouvrez une page web et saisissez ce code\./, "how to connect, with the network's name");
      const ar = await t.app.inject({ method: "GET", url: `/api/voucher-sheet?identifier=${t.identifier}&batch_id=${res.body.batch_id}&language=ar` });
      assert.match(ar.body, /<html lang="ar" dir="rtl">/);
      const bad = await t.app.inject({ method: "GET", url: `/api/voucher-sheet?identifier=${t.identifier}&batch_id=${res.body.batch_id}&language=xx` });
      assert.equal(bad.statusCode, 400);
      assert.ok(JSON.parse(bad.body).message.language);
    });

    it("keeps accounts apart: another account can neither see, revoke nor print a batch, nor use a location", async () => {
      const res = await t.call("POST", "create-voucher-batch", { location_ids: String(loc), count: 2, duration: 30 });
      const batchId = res.body.batch_id;
      const voucherId = (await t.call("GET", "voucher-list", { batch_id: batchId })).body.data[0].voucher_id;
      const other = await t.newAccount();
      const as = { identifier: other.identifier };
      const before = await counts();
      assert.deepEqual((await t.call("GET", "voucher-batch-list", {}, as)).body.data, []);
      assert.equal((await t.call("GET", "voucher-list", {}, as)).body.total, 0);
      const foreign = await t.call("GET", "voucher-list", { batch_id: batchId }, as);
      assert.deepEqual(foreign.body, { status: "error", message: { batch_id: ["The selected batch_id is invalid."] } });
      const byLocation = await t.call("GET", "voucher-list", { location_id: loc }, as);
      assert.equal(byLocation.statusCode, 400);
      assert.equal((await t.call("POST", "revoke-voucher", { voucher_id: voucherId }, as)).statusCode, 400);
      assert.equal((await t.call("POST", "revoke-voucher", { batch_id: batchId }, as)).statusCode, 400);
      const sheet = await t.app.inject({ method: "GET", url: `/api/voucher-sheet?identifier=${other.identifier}&batch_id=${batchId}` });
      assert.equal(sheet.statusCode, 400);
      const create = await t.call("POST", "create-voucher-batch", { location_ids: String(loc), count: 2, duration: 30 }, as);
      assert.deepEqual(create.body, { status: "error", message: { location_ids: ["The selected location_ids is invalid."] } });
      assert.deepEqual(await counts(), before);
    });

    it("lets a read-only sub-user read but not write", async () => {
      const ro = await makeSubUser(t, { readonly: true });
      const as = { identifier: ro.identifier };
      const before = await counts();
      const create = await t.call("POST", "create-voucher-batch", { location_ids: String(loc), count: 2, duration: 30 }, as);
      assert.equal(create.statusCode, 400);
      assert.deepEqual(create.body.message, { identifier: ["This identifier is read-only."] });
      const some = (await t.call("GET", "voucher-list", { per_page: 1 })).body.data[0].voucher_id;
      assert.equal((await t.call("POST", "revoke-voucher", { voucher_id: some }, as)).statusCode, 400);
      assert.equal((await t.call("GET", "voucher-batch-list", {}, as)).statusCode, 200);
      assert.deepEqual(await counts(), before);
    });

    it("answers bad input with the 400 shape and writes nothing", async () => {
      const before = await counts();
      const cases: [Record<string, unknown>, string, string][] = [
        [{ location_ids: String(loc), count: 0, duration: 30 }, "count", "The count must be at least 1."],
        [{ location_ids: String(loc), count: 10_001, duration: 30 }, "count", "The count may not be greater than 10000."],
        [{ location_ids: String(loc), count: "many", duration: 30 }, "count", "The count must be an integer."],
        [{ location_ids: String(loc), count: 1, duration: 0 }, "duration", "The duration must be at least 1."],
        [{ location_ids: String(loc), count: 1 }, "duration", "The duration field is required."],
        [{ location_ids: String(loc), count: 1, duration: 5, data_cap: -1 }, "data_cap", "The data_cap must be at least 0."],
        [{ location_ids: String(loc), count: 1, duration: 5, devices_per_code: 101 }, "devices_per_code", "The devices_per_code may not be greater than 100."],
        [{ location_ids: String(loc), count: 1, duration: 5, expires: "2020-01-01" }, "expires", "The expires must be a date after or equal to today."],
        [{ location_ids: String(loc), count: 1, duration: 5, expires: "2026-02-30" }, "expires", "The expires is not a valid date."],
        [{ location_ids: "999999", count: 1, duration: 5 }, "location_ids", "The selected location_ids is invalid."],
      ];
      for (const [params, param, sentence] of cases) {
        const res = await t.call("POST", "create-voucher-batch", params);
        assert.equal(res.statusCode, 400, JSON.stringify(params));
        assert.equal(res.body.status, "error");
        assert.deepEqual(res.body.message[param], [sentence], JSON.stringify(res.body));
      }
      const both = await t.call("POST", "revoke-voucher", {});
      assert.deepEqual(both.body, { status: "error", message: { voucher_id: ["Give either voucher_id or batch_id."] } });
      const status = await t.call("GET", "voucher-list", { status: "gone" });
      assert.deepEqual(status.body.message.status, ["The status must be one of: unused, active, used_up, expired, revoked."]);
      const paper = await t.call("GET", "voucher-sheet", { batch_id: 1, paper: "a3" });
      assert.equal(paper.statusCode, 400);
      assert.deepEqual(await counts(), before);
    });
  });
}
