import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hashPassword, verifyPassword } from "../../../src/modules/accounts/password.js";

describe("sub-user password hashing", () => {
  it("verifies the password it hashed and nothing else", async () => {
    const stored = await hashPassword("correct horse");
    assert.equal(await verifyPassword("correct horse", stored), true);
    assert.equal(await verifyPassword("correct horsE", stored), false);
    assert.equal(await verifyPassword("", stored), false);
  });

  it("treats canonically equal Unicode spellings as one password", async () => {
    const stored = await hashPassword("caf\u00e9!");
    assert.equal(await verifyPassword("cafe\u0301!", stored), true);
  });

  it("refuses stored values that are not its own scrypt format instead of throwing", async () => {
    const good = await hashPassword("secret");
    const [, n, salt, hash] = good.split("$");
    for (const bad of [
      "",
      "secret",
      `bcrypt$${n}$${salt}$${hash}`,
      `scrypt$${n}$${salt}`,
      `scrypt$1000$${salt}$${hash}`,
      `scrypt$${2 ** 30}$${salt}$${hash}`,
      `scrypt$${n}$${salt}$${hash.slice(4)}`,
    ]) {
      assert.equal(await verifyPassword("secret", bad), false, bad);
    }
    assert.equal(await verifyPassword("secret", `scrypt$${n}$${salt}$${hash}`), true);
  });
});
