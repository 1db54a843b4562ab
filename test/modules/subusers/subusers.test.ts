import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sql } from "kysely";
import { verifyPassword } from "../../../src/modules/accounts/password.js";
import { type TestApp, createTestApp, locationParams } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { makeLocation, makeSubUser, subUserParams } from "../../helpers/sub-users.js";

/** Deletes a sub-user's row but not its identifier, as a hand-made delete past the foreign key would. */
async function removeSubUserRow(t: TestApp, id: number): Promise<void> {
  if (t.dialect === "sqlite") {
    await sql`pragma foreign_keys = off`.execute(t.db);
    await t.db.deleteFrom("sub_users").where("id", "=", id).execute();
    await sql`pragma foreign_keys = on`.execute(t.db);
    return;
  }
  await t.db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    await trx.deleteFrom("sub_users").where("id", "=", id).execute();
  });
}

const LIST_KEYS = [
  "date_created",
  "disabled",
  "email",
  "first_name",
  "id",
  "last_modified",
  "last_name",
  "location_ids",
  "phone_number",
  "quickreport",
  "quickreport_location_id",
  "readonly",
];

for (const dialect of DIALECTS) {
  describe(`sub-users (${dialect})`, () => {
    let t: TestApp;
    let locationId: number;
    before(async () => {
      t = await createTestApp(dialect);
      locationId = await makeLocation(t);
    });
    after(async () => t.close());

    it("creates a sub-user by GET with the specification's names, answering its own identifier", async () => {
      const params = subUserParams(locationId, { quickreport: "1", readonly: "0" });
      const res = await t.call("GET", "create-sub-user", params);
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      const b = res.body;
      assert.deepEqual(Object.keys(b).sort(), ["device_id", "identifier", "message", "status", "sub_user_id"]);
      assert.equal(b.status, "success");
      assert.equal(b.message, "Sub User has been successfully created.");
      assert.equal(typeof b.sub_user_id, "number");
      assert.equal(b.device_id, b.sub_user_id);
      assert.match(b.identifier, /^[A-Za-z0-9_-]{43}$/);
      assert.notEqual(b.identifier, t.identifier);

      const list = await t.call("GET", "subuser-list");
      assert.equal(list.statusCode, 200);
      const entry = list.body.data.find((s: { id: number }) => s.id === b.sub_user_id);
      assert.deepEqual(Object.keys(entry).sort(), LIST_KEYS);
      assert.equal(entry.first_name, "Ada");
      assert.equal(entry.last_name, "Lovelace");
      assert.equal(entry.email, params.email_address);
      assert.equal(entry.phone_number, "");
      assert.equal(entry.quickreport, 1);
      assert.equal(entry.readonly, 0);
      assert.equal(entry.quickreport_location_id, locationId);
      assert.match(entry.date_created, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      assert.ok(!JSON.stringify(list.body).includes("s3cret-pass"), "the password is never returned");
    });

    it("accepts POST forms and JSON with the published client's aliases and true/false", async () => {
      const form = await t.call(
        "POST",
        "create-sub-user",
        subUserParams(locationId, { email_address: undefined, email: "Front.Desk@Example.COM", quickreport: "false", readonly: "true", mobile_phone: "+1(217)555-0100" }),
      );
      assert.equal(form.statusCode, 200, JSON.stringify(form.body));
      const json = await t.call(
        "POST",
        "create-sub-user",
        subUserParams(locationId, { quickreport: true, readonly: false, quickreport_location_id: locationId, phone_number: "+44(207)555-0199" }),
        { as: "json" },
      );
      assert.equal(json.statusCode, 200, JSON.stringify(json.body));
      const list = await t.call("GET", "subuser-list");
      const byId = new Map(list.body.data.map((s: { id: number }) => [s.id, s]));
      const f = byId.get(form.body.sub_user_id) as Record<string, unknown>;
      assert.equal(f.email, "front.desk@example.com");
      assert.equal(f.quickreport, 0);
      assert.equal(f.readonly, 1);
      assert.equal(f.phone_number, "+1(217)555-0100");
      const j = byId.get(json.body.sub_user_id) as Record<string, unknown>;
      assert.equal(j.quickreport, 1);
      assert.equal(j.readonly, 0);
      assert.equal(j.phone_number, "+44(207)555-0199");
      const ids = list.body.data.map((s: { id: number }) => s.id);
      assert.deepEqual(ids, [...ids].sort((x: number, y: number) => x - y));
    });

    it("stores the password only as a salted scrypt hash", async () => {
      const a = await t.call("POST", "create-sub-user", subUserParams(locationId, { password: "same-password" }));
      const b = await t.call("POST", "create-sub-user", subUserParams(locationId, { password: "same-password" }));
      const rows = await t.db
        .selectFrom("sub_users")
        .select(["id", "password_hash"])
        .where("id", "in", [a.body.sub_user_id, b.body.sub_user_id])
        .orderBy("id")
        .execute();
      assert.equal(rows.length, 2);
      for (const r of rows) {
        assert.match(r.password_hash, /^scrypt\$16384\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/);
        assert.ok(!r.password_hash.includes("same-password"), "the hash does not contain the password");
        assert.equal(await verifyPassword("same-password", r.password_hash), true);
        assert.equal(await verifyPassword("same-passwore", r.password_hash), false);
      }
      assert.notEqual(rows[0].password_hash, rows[1].password_hash, "salted: equal passwords, different hashes");
    });

    it("reports every failing parameter at once and writes nothing", async () => {
      const before = await t.call("GET", "subuser-list");
      const res = await t.call("POST", "create-sub-user", {
        first_name: "f".repeat(101),
        last_name: "l".repeat(101),
        email_address: "not-an-email",
        password: "1234",
        quickreport: "yes",
        readonly: "2",
        quickreport_location_id: "abc",
        phone_number: "(217)555-0100",
      });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.body.message, {
        first_name: ["The first_name may not be greater than 100 characters."],
        last_name: ["The last_name may not be greater than 100 characters."],
        email_address: ["The email_address must be a valid email address."],
        password: ["The password must be at least 10 characters."],
        quickreport: ["The quickreport must be one of: 0, 1, true, false."],
        readonly: ["The readonly must be one of: 0, 1, true, false."],
        quickreport_location_id: ["The quickreport_location_id must be an integer."],
        phone_number: ["The phone_number format is invalid."],
      });
      const missing = await t.call("GET", "create-sub-user", {});
      assert.deepEqual(missing.body.message, {
        first_name: ["The first_name field is required."],
        last_name: ["The last_name field is required."],
        email_address: ["The email_address field is required."],
        password: ["The password field is required."],
        quickreport: ["The quickreport field is required."],
        readonly: ["The readonly field is required."],
        quickreport_location_id: ["The quickreport_location_id field is required."],
      });
      const alias = await t.call("POST", "create-sub-user", subUserParams(locationId, { email_address: undefined, email: "bad@", mobile_phone: "555" }));
      assert.deepEqual(alias.body.message, {
        email: ["The email must be a valid email address."],
        mobile_phone: ["The mobile_phone format is invalid."],
      });
      const exact = await t.call("POST", "create-sub-user", subUserParams(locationId, { first_name: "f".repeat(100), password: "1234567890" }));
      assert.equal(exact.statusCode, 200, "100 characters and a 10-character password (owners' rule) are allowed");
      const afterList = await t.call("GET", "subuser-list");
      assert.equal(afterList.body.data.length, before.body.data.length + 1);
    });

    it("refuses an e-mail already taken by any account's sub-user, whatever its case", async () => {
      const email = `taken-${Date.now()}@example.com`;
      const first = await t.call("POST", "create-sub-user", subUserParams(locationId, { email_address: email }));
      assert.equal(first.statusCode, 200);
      const other = await t.newAccount();
      const otherLoc = await makeLocation(t, other.identifier);
      const again = await t.call("POST", "create-sub-user", subUserParams(otherLoc, { email_address: email.toUpperCase() }), {
        identifier: other.identifier,
      });
      assert.equal(again.statusCode, 400);
      assert.deepEqual(again.body, { status: "error", message: { email_address: ["The email_address has already been taken."] } });
      const viaAlias = await t.call("POST", "create-sub-user", subUserParams(locationId, { email_address: undefined, email }));
      assert.deepEqual(viaAlias.body.message, { email: ["The email has already been taken."] });
    });

    it("requires quickreport_location_id to be a live location of the caller's account", async () => {
      const other = await t.newAccount();
      const theirs = await makeLocation(t, other.identifier);
      const deleted = await makeLocation(t);
      await t.call("POST", "delete-location", { location_id: deleted });
      for (const id of [theirs, deleted, 999999]) {
        const res = await t.call("POST", "create-sub-user", subUserParams(id));
        assert.equal(res.statusCode, 400, String(id));
        assert.deepEqual(res.body.message, { quickreport_location_id: ["The selected quickreport_location_id is invalid."] });
      }
    });

    it("a sub-user's identifier acts inside the parent's account; sub-users cannot create sub-users", async () => {
      const rw = await makeSubUser(t, { readonly: false });
      const made = await t.call("POST", "create-or-update-location", locationParams({ location_name: "Made by staff" }), { identifier: rw.identifier });
      assert.equal(made.statusCode, 200, JSON.stringify(made.body));
      const parentView = await t.call("GET", "get-location", { location_ids: String(made.body.location_id) });
      assert.equal(parentView.body.data[0].name, "Made by staff");
      const staffView = await t.call("GET", "get-location", { location_ids: String(locationId) }, { identifier: rw.identifier });
      assert.equal(staffView.statusCode, 200);

      const nested = await t.call("POST", "create-sub-user", subUserParams(locationId), { identifier: rw.identifier });
      assert.equal(nested.statusCode, 400);
      assert.deepEqual(nested.body, { status: "error", message: { identifier: ["This identifier may not manage sub-users."] } });
      const ro = await makeSubUser(t, { readonly: true });
      for (const method of ["GET", "POST"] as const) {
        const res = await t.call(method, "create-sub-user", subUserParams(locationId), { identifier: ro.identifier });
        assert.deepEqual(res.body, { status: "error", message: { identifier: ["This identifier is read-only."] } }, method);
      }
      const roList = await t.call("GET", "subuser-list", {}, { identifier: ro.identifier });
      assert.equal(roList.statusCode, 200);
      assert.ok(roList.body.data.some((s: { id: number }) => s.id === ro.id), "the read-only sub-user lists itself");
      const roWrite = await t.call("POST", "create-or-update-location", locationParams(), { identifier: ro.identifier });
      assert.deepEqual(roWrite.body.message, { identifier: ["This identifier is read-only."] });
    });

    it("an identifier whose sub-user row is gone is invalid, never a writable caller", async () => {
      const staff = await makeSubUser(t, { readonly: true });
      // No endpoint deletes sub-users yet; an operator (or a future one) may remove the row by hand.
      await removeSubUserRow(t, staff.id);
      for (const [method, path] of [["GET", "location-list"], ["POST", "create-or-update-location"]] as const) {
        const res = await t.call(method, path, locationParams(), { identifier: staff.identifier });
        assert.deepEqual(res.body, { status: "error", message: { identifier: ["The identifier is invalid."] } }, path);
      }
    });

    it("subuser-list shows only the caller's account's sub-users", async () => {
      const other = await t.newAccount();
      const otherLoc = await makeLocation(t, other.identifier);
      const theirs = await t.call("GET", "create-sub-user", subUserParams(otherLoc), { identifier: other.identifier });
      assert.equal(theirs.statusCode, 200);
      const mine = await t.call("GET", "subuser-list");
      assert.ok(!mine.body.data.some((s: { id: number }) => s.id === theirs.body.sub_user_id), "another account's sub-user is not listed");
      const theirList = await t.call("GET", "subuser-list", {}, { identifier: other.identifier });
      assert.deepEqual(
        theirList.body.data.map((s: { id: number }) => s.id),
        [theirs.body.sub_user_id],
      );
      const fresh = await t.newAccount();
      const none = await t.call("GET", "subuser-list", {}, { identifier: fresh.identifier });
      assert.deepEqual(none.body, { status: "success", data: [] });
    });
  });
}
