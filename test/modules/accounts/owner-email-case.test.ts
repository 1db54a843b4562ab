/**
 * Owners' e-mails are one mailbox whatever their case, on both databases: stored in lower case,
 * found in any case (sign-in, set-password, a second create), unique in lower case in the database
 * itself, and the migration that lower-cases an existing database (and stops, changing nothing,
 * when two accounts differ only in case).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { migrateToLatest } from "../../../src/db/migrator.js";
import { down as dropLowerIndex } from "../../../src/db/migrations/2026-11-27T0200-owner-email-case.js";
import { AccountExistsError, createAccount, setOwnerPassword, verifyOwnerPassword } from "../../../src/modules/accounts/accounts.service.js";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS, createTestDb } from "../../helpers/db.js";

const PASSWORD = "a long owner password";
const MIGRATION = "2026-11-27T0200-owner-email-case";

for (const dialect of DIALECTS) {
  describe(`owner e-mails in any case (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(async () => t?.close());

    it("stores an owner's e-mail in lower case, and finds it in any case", async () => {
      const typed = ` Mixed.Case-${dialect}@Example.COM `;
      const lower = typed.trim().toLowerCase();
      const { accountId } = await createAccount(t.deps, typed, PASSWORD);
      const row = await t.db.selectFrom("accounts").select("email").where("id", "=", accountId).executeTakeFirstOrThrow();
      assert.equal(row.email, lower);
      assert.deepEqual(await verifyOwnerPassword(t.deps, lower.toUpperCase(), PASSWORD), { accountId });
      await assert.rejects(createAccount(t.deps, lower.toUpperCase()), AccountExistsError);
      await setOwnerPassword(t.deps, `MIXED.case-${dialect}@example.com`, `${PASSWORD} 2`);
      assert.deepEqual(await verifyOwnerPassword(t.deps, lower, `${PASSWORD} 2`), { accountId });
      const signIn = await t.app.inject({ method: "POST", url: "/console/api/sign-in", payload: { email: lower.toUpperCase(), password: `${PASSWORD} 2` }, remoteAddress: "10.77.0.1" });
      assert.equal(signIn.statusCode, 200, signIn.body);
      assert.equal(signIn.json().user.email, lower);
    });

    it("the database refuses a second owner whose e-mail differs only in case", async () => {
      const { accountId } = await createAccount(t.deps, `unique-${dialect}@example.com`);
      assert.ok(accountId);
      await assert.rejects(
        t.db.insertInto("accounts").values({ email: `UNIQUE-${dialect}@example.com`, created_at: "2026-01-01 00:00:00", password_hash: null }).execute(),
        /unique|UNIQUE/,
      );
    });
  });

  describe(`the owner e-mail migration (${dialect})`, () => {
    it("lower-cases existing e-mails, and stops without a change when two differ only in case", async () => {
      const d = await createTestDb(dialect);
      try {
        // A database as it was before the migration: no lower-case index, e-mails as typed.
        await dropLowerIndex(d.db);
        await d.db.deleteFrom("kysely_migration" as any).where("name", "=", MIGRATION).execute();
        const at = "2026-01-01 00:00:00";
        await d.db.insertInto("accounts").values([
          { email: "Anna@Example.com", created_at: at, password_hash: null },
          { email: "bob@example.com", created_at: at, password_hash: null },
          { email: "ANNA@example.COM", created_at: at, password_hash: null },
        ]).execute();
        await assert.rejects(migrateToLatest(d.db), /differ only in case: anna@example\.com \(accounts \d+, \d+\)/);
        const kept = (await d.db.selectFrom("accounts").select("email").orderBy("id").execute()).map((r) => r.email);
        assert.deepEqual(kept.slice(-3), ["Anna@Example.com", "bob@example.com", "ANNA@example.COM"], "nothing changed");

        await d.db.updateTable("accounts").set({ email: "anna.other@example.com" }).where("email", "=", "ANNA@example.COM").execute();
        assert.deepEqual(await migrateToLatest(d.db), [MIGRATION]);
        const emails = (await d.db.selectFrom("accounts").select("email").orderBy("id").execute()).map((r) => r.email);
        assert.deepEqual(emails.slice(-3), ["anna@example.com", "bob@example.com", "anna.other@example.com"]);
        await assert.rejects(d.db.insertInto("accounts").values({ email: "BOB@example.com", created_at: at, password_hash: null }).execute());
      } finally {
        await d.close();
      }
    });
  });
}
