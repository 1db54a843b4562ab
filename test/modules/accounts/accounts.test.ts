import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  AccountExistsError,
  OwnerPasswordError,
  UnknownAccountError,
  createAccount,
  findCaller,
  setOwnerPassword,
  verifyOwnerPassword,
} from "../../../src/modules/accounts/accounts.service.js";
import { verifySubUserPassword } from "../../../src/modules/subusers/subusers.service.js";
import { makeLocation, subUserParams } from "../../helpers/sub-users.js";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";

for (const dialect of DIALECTS) {
  describe(`accounts (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(async () => t.close());

    it("creates one account per e-mail, also when two creates race", async () => {
      for (let i = 0; i < 20; i++) {
        const email = `race-${i}-${Date.now()}@example.com`;
        const results = await Promise.allSettled([createAccount(t.deps, email), createAccount(t.deps, email)]);
        assert.equal(results.filter((r) => r.status === "fulfilled").length, 1, JSON.stringify(results));
        const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
        assert.ok(refused.reason instanceof AccountExistsError, String(refused.reason));
      }
    });

    it("finds the caller behind an identifier, and nothing behind an unknown one", async () => {
      assert.deepEqual(await findCaller(t.deps, t.identifier), { accountId: t.accountId, subUserId: null, readonly: false, locationScope: null });
      assert.equal(await findCaller(t.deps, "not-an-identifier"), undefined);
    });

    it("verifies an owner's password set at creation, and the same nothing for a wrong one, an unknown e-mail or none set", async () => {
      const email = `pw-${Date.now()}@example.com`;
      const { accountId } = await createAccount(t.deps, email, "correct horse battery");
      assert.deepEqual(await verifyOwnerPassword(t.deps, email, "correct horse battery"), { accountId });
      assert.equal(await verifyOwnerPassword(t.deps, email, "correct horse batterY"), undefined);
      assert.equal(await verifyOwnerPassword(t.deps, `nobody-${Date.now()}@example.com`, "correct horse battery"), undefined);
      // The first account was created without a password: nothing logs in as it, not even "".
      const first = await t.db.selectFrom("accounts").select("email").where("id", "=", t.accountId).executeTakeFirstOrThrow();
      assert.equal(await verifyOwnerPassword(t.deps, first.email, ""), undefined);
      const stored = await t.db.selectFrom("accounts").select("password_hash").where("id", "=", accountId).executeTakeFirstOrThrow();
      assert.match(stored.password_hash ?? "", /^scrypt\$16384\$/);
      assert.ok(!(stored.password_hash ?? "").includes("correct"));
    });

    it("sets and resets an owner's password; refuses short ones and unknown e-mails", async () => {
      const first = await t.db.selectFrom("accounts").select("email").where("id", "=", t.accountId).executeTakeFirstOrThrow();
      await setOwnerPassword(t.deps, first.email, "first password");
      assert.deepEqual(await verifyOwnerPassword(t.deps, first.email, "first password"), { accountId: t.accountId });
      await setOwnerPassword(t.deps, first.email, "second password");
      assert.equal(await verifyOwnerPassword(t.deps, first.email, "first password"), undefined);
      assert.deepEqual(await verifyOwnerPassword(t.deps, first.email, "second password"), { accountId: t.accountId });
      await assert.rejects(setOwnerPassword(t.deps, first.email, "123456789"), OwnerPasswordError);
      await assert.rejects(setOwnerPassword(t.deps, first.email, ""), OwnerPasswordError);
      await assert.rejects(createAccount(t.deps, `short-${Date.now()}@example.com`, "short"), OwnerPasswordError);
      await assert.rejects(setOwnerPassword(t.deps, `nobody-${Date.now()}@example.com`, "long enough pass"), UnknownAccountError);
    });

    it("verifies a sub-user's password whatever the case of the e-mail, with its account and read-only flag", async () => {
      const location = await makeLocation(t);
      const params = subUserParams(location, { readonly: "1", password: "staff password" });
      const res = await t.call("POST", "create-sub-user", params);
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      const email = String(params.email_address);
      const found = await verifySubUserPassword(t.deps, email.toUpperCase(), "staff password");
      assert.equal(found?.accountId, t.accountId);
      assert.equal(found?.readonly, true);
      assert.equal(await verifySubUserPassword(t.deps, email, "staff passworD"), undefined);
      assert.equal(await verifySubUserPassword(t.deps, `nobody-${Date.now()}@example.com`, "staff password"), undefined);
    });
  });
}
