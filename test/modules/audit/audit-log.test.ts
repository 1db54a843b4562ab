/**
 * The audit log: every write through the API, the console and the command line, with who, what
 * (never a secret's value), when and from where; listed per account with filters and pages; kept for
 * the account's audit retention.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { createAccount } from "../../../src/modules/accounts/accounts.service.js";
import { purgeAuditLog } from "../../../src/modules/audit/audit.service.js";
import { toDbDatetime } from "../../../src/db/time.js";
import { BIN } from "../../cli/cli-db.js";
import { type TestApp, createTestApp, locationParams } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { subUserParams } from "../../helpers/sub-users.js";

const SECRET_PASSWORD = "a-secret-that-must-not-be-logged";

for (const dialect of DIALECTS) {
  describe(`audit log (${dialect})`, () => {
    let t: TestApp;
    let loc: number;
    before(async () => {
      t = await createTestApp(dialect);
      const res = await t.call("POST", "create-or-update-location", locationParams({ location_name: "Audit Pier" }), { headers: { "x-forwarded-for": "198.51.100.7" } });
      loc = res.body.location_id;
    });
    after(async () => t.close());

    const list = async (params: Record<string, unknown> = {}, identifier?: string) => {
      const res = await t.call("GET", "audit-log-list", params, identifier === undefined ? {} : { identifier });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      return res.body;
    };

    it("records an API write: who, what, the record, the fields given, when and from where", async () => {
      const body = await list({ action: "create-or-update-location" });
      const [e] = body.data;
      assert.equal(e.actor_type, "owner");
      assert.match(e.actor, /@example\.com$/);
      assert.equal(e.via, "api");
      assert.deepEqual(e.objects, { location_id: [loc] });
      assert.equal(e.changes.location_name, "Audit Pier");
      assert.equal(e.changes.identifier, undefined, "the identifier is never recorded");
      assert.match(e.at, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      assert.equal(typeof e.address, "string");
      assert.ok(e.address.length > 0);
      assert.equal(body.retention_days, 365);
    });

    it("never records a secret's value, and records nothing for a refused write", async () => {
      const created = await t.call("POST", "create-sub-user", subUserParams(loc, { password: SECRET_PASSWORD }));
      assert.equal(created.statusCode, 200);
      const upd = await t.call("POST", "update-sub-user", { sub_user_id: created.body.sub_user_id, password: `${SECRET_PASSWORD}-2`, first_name: "Grace" });
      assert.equal(upd.statusCode, 200);
      const refused = await t.call("POST", "create-or-update-location", locationParams({ country: "XX" }));
      assert.equal(refused.statusCode, 400);
      const all = await list({ per_page: 200 });
      const text = JSON.stringify(all);
      assert.equal(text.includes(SECRET_PASSWORD), false, "no password in the log");
      assert.equal(text.includes(created.body.identifier), false, "no identifier in the log");
      const update = all.data.find((e: { action: string }) => e.action === "update-sub-user");
      assert.deepEqual(update.changes, { sub_user_id: created.body.sub_user_id, password: "(changed)", first_name: "Grace" });
      assert.deepEqual(update.objects, { sub_user_id: [created.body.sub_user_id] });
      assert.equal(all.data.filter((e: { changes: { country?: string } }) => e.changes.country === "XX").length, 0);
    });

    it("names the sub-user who wrote, filters by actor, action, object and dates, and pages newest first", async () => {
      const sub = await t.call("POST", "create-sub-user", subUserParams(loc));
      const subId = sub.body.sub_user_id;
      for (let i = 0; i < 3; i++) {
        const r = await t.call("POST", "create-or-update-location", { ...locationParams({ location_name: `Renamed ${i}` }), location_id: loc }, { identifier: sub.body.identifier });
        assert.equal(r.statusCode, 200);
      }
      const bySub = await list({ sub_user_id: subId });
      assert.equal(bySub.total, 3);
      assert.equal(bySub.data[0].actor_type, "sub-user");
      assert.equal(bySub.data[0].changes.location_name, "Renamed 2", "newest first");
      const page2 = await list({ sub_user_id: subId, per_page: 2, page: 2 });
      assert.equal(page2.data.length, 1);
      assert.equal(page2.data[0].changes.location_name, "Renamed 0");
      const byObject = await list({ object: `location_id:${loc}` });
      assert.ok(byObject.total >= 4);
      assert.ok(byObject.data.every((e: { objects: { location_id?: number[] } }) => e.objects.location_id?.includes(loc)));
      const subs = await list({ actor_type: "sub-user" });
      assert.ok(subs.data.every((e: { actor_type: string }) => e.actor_type === "sub-user"));
      const today = new Date().toISOString().slice(0, 10);
      assert.ok((await list({ from_date: today, to_date: today })).total >= 4);
      assert.equal((await list({ from_date: "2020-01-01", to_date: "2020-01-02" })).total, 0);
      const bad = await t.call("GET", "audit-log-list", { object: "x", actor_type: "robot", per_page: 201 });
      assert.deepEqual(Object.keys(bad.body.message).sort(), ["actor_type", "object", "per_page"]);
      // The reading sub-user sees the account's log; a scoped one its own writes only.
      const reader = await t.call("POST", "create-sub-user", subUserParams(loc, { readonly: "1" }));
      assert.equal((await list({}, reader.body.identifier)).total, (await list()).total);
      const scoped = await t.call("POST", "create-sub-user", subUserParams(loc, { location_ids: String(loc) }));
      assert.equal((await list({}, scoped.body.identifier)).total, 0);
    });

    it("records console writes as such", async () => {
      const email = `audit-console-${dialect}-${Date.now()}@example.com`;
      const { accountId } = await createAccount(t.deps, email, "a long owner password");
      const signIn = await t.app.inject({ method: "POST", url: "/console/api/sign-in", payload: { email, password: "a long owner password" }, remoteAddress: "10.99.0.1" });
      assert.equal(signIn.statusCode, 200, signIn.body);
      const cookie = String(signIn.headers["set-cookie"]).split(";")[0];
      const csrf = signIn.json().user.csrf_token;
      const res = await t.app.inject({ method: "POST", url: "/api/create-or-update-location", payload: locationParams({ location_name: "From the console" }) as Record<string, string>, headers: { cookie, "x-csrf-token": csrf }, remoteAddress: "10.99.0.1" });
      assert.equal(res.statusCode, 200, res.body);
      const rows = await t.db.selectFrom("audit_log").selectAll().where("account_id", "=", accountId).execute();
      assert.equal(rows.length, 1);
      assert.equal(rows[0].via, "console");
      assert.equal(rows[0].address, "10.99.0.1");
      assert.equal(rows[0].actor, email);
    });

    it("keeps entries for the account's audit retention, and others' entries are never shown", async () => {
      const other = await t.newAccount();
      assert.equal((await list({}, other.identifier)).total, 0, "another account sees none of this log");
      const set = await t.call("POST", "set-audit-log-retention", { retention_days: 30 });
      assert.equal(set.statusCode, 200);
      const old = toDbDatetime(new Date(Date.now() - 40 * 86_400_000));
      await t.db.insertInto("audit_log").values({ account_id: t.accountId, at: old, actor_type: "owner", sub_user_id: null, actor: "x", via: "api", action: "old-write", objects: "{}", object_keys: "", changes: "{}", address: "" }).execute();
      assert.equal((await list({ action: "old-write" })).total, 1);
      assert.ok((await purgeAuditLog(t.deps)) >= 1);
      assert.equal((await list({ action: "old-write" })).total, 0);
      assert.ok((await list()).total > 0, "recent entries stay");
      assert.equal((await list()).retention_days, 30);
      const bySub = await t.call("POST", "set-audit-log-retention", { retention_days: 10 }, { identifier: (await t.call("POST", "create-sub-user", subUserParams(loc))).body.identifier });
      assert.equal(bySub.statusCode, 400);
    });

    it("records the command line's writes", { timeout: 120_000 }, async () => {
      const email = `audit-cli-${dialect}-${Date.now()}@example.com`;
      const env: Record<string, string> = { PATH: process.env.PATH ?? "", DATABASE_URL: dialect === "postgres" ? `${t.url}?options=${encodeURIComponent(`-c search_path=${t.schema}`)}` : t.url };
      const out = await new Promise<string>((resolve, reject) =>
        execFile(process.execPath, [BIN, "account", "create", "--email", email, "--json"], { env, timeout: 110_000 }, (err, stdout, stderr) => (err ? reject(new Error(stderr)) : resolve(stdout))),
      );
      const accountId = JSON.parse(out).account_id;
      const rows = await t.db.selectFrom("audit_log").selectAll().where("account_id", "=", accountId).execute();
      assert.equal(rows.length, 1);
      assert.equal(rows[0].actor_type, "cli");
      assert.equal(rows[0].via, "cli");
      assert.equal(rows[0].action, "account create");
      assert.equal(rows[0].actor, "command line");
    });
  });
}
