/**
 * The rule of backgroundFailures: one line per spell of failures (a warning without a stack when the
 * database is busy or away, an error with its stack otherwise), one line when the job works again,
 * and a new spell logged at most once a minute. The clock is injected; the log records its lines.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { backgroundFailures } from "../../src/db/background-failures.js";

function recorder() {
  const lines: { level: string; obj: Record<string, unknown>; msg?: string }[] = [];
  /** The debug lines (each further failure of a spell), apart: the rule is about what reaches the log at info. */
  const retries: Record<string, unknown>[] = [];
  const at = (level: string) => (obj: object, msg?: string) => lines.push({ level, obj: obj as Record<string, unknown>, msg });
  return { lines, retries, log: { debug: (obj: object) => retries.push(obj as Record<string, unknown>), info: at("info"), warn: at("warn"), error: at("error") } };
}

const busy = () => Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });

describe("backgroundFailures", () => {
  it("logs a busy database once per spell, without a stack, and once when it works again", () => {
    const { lines, retries, log } = recorder();
    let now = 1_000_000;
    const f = backgroundFailures(log, "webhook delivery", () => now);
    for (let i = 0; i < 30; i++) {
      f.failed(busy(), "read again in 100 ms");
      now += 100;
    }
    assert.equal(lines.length, 1);
    assert.equal(lines[0].level, "warn");
    assert.deepEqual(lines[0].obj, { job: "webhook delivery", code: "SQLITE_BUSY", reason: "database is locked" });
    assert.match(lines[0].msg!, /^webhook delivery: the database is busy or unavailable; read again in 100 ms/);
    assert.deepEqual(retries.map((r) => r.failedAttempts), Array.from({ length: 29 }, (_, i) => i + 2), "each further failure at debug, with the count");
    f.succeeded();
    f.succeeded();
    assert.equal(lines.length, 2);
    assert.equal(lines[1].level, "info");
    assert.deepEqual(lines[1].obj, { job: "webhook delivery", failedAttempts: 30, failingMs: 3000 });
  });

  it("logs another fault as one error with the error itself (its stack), once per spell", () => {
    const { lines, log } = recorder();
    const f = backgroundFailures(log, "retention job", () => 0);
    const err = new TypeError("a bug");
    f.failed(err, "it runs again in 1 h");
    f.failed(err, "it runs again in 1 h");
    assert.equal(lines.length, 1);
    assert.equal(lines[0].level, "error");
    assert.equal(lines[0].obj.err, err);
  });

  it("logs a new spell at most once a minute, so a job failing and working in turn does not flood the log", () => {
    const { lines, log } = recorder();
    let now = 0;
    const f = backgroundFailures(log, "message sending", () => now);
    for (let i = 0; i < 20; i++) {
      f.failed(busy(), "read again in 1 s");
      now += 1_000;
      f.succeeded();
      now += 1_000;
    }
    // 40 s of flapping: the first spell is logged (warn, then info), the rest only counted.
    assert.deepEqual(
      lines.map((l) => l.level),
      ["warn", "info"],
    );
    now += 60_000;
    f.failed(busy(), "read again in 1 s");
    assert.equal(lines.length, 3, "a minute later a new spell is logged again");
  });

  it("says nothing while the job works", () => {
    const { lines, log } = recorder();
    const f = backgroundFailures(log, "radius housekeeping");
    f.succeeded();
    assert.equal(lines.length, 0);
  });
});
