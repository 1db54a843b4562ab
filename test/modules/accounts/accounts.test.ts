import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { AccountExistsError, createAccount, findCaller } from "../../../src/modules/accounts/accounts.service.js";
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
      assert.deepEqual(await findCaller(t.deps, t.identifier), { accountId: t.accountId, subUserId: null, readonly: false });
      assert.equal(await findCaller(t.deps, "not-an-identifier"), undefined);
    });
  });
}
