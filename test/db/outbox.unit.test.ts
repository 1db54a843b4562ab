/** The outboxes' shared rules: the backoff and when a failing row is given up. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { afterFailure, backoffMs } from "../../src/db/outbox.js";

describe("outbox backoff", () => {
  it("doubles from the base up to an hour, with at most 10 % jitter", () => {
    for (const [n, plain] of [
      [1, 10_000],
      [2, 20_000],
      [3, 40_000],
      [12, 3_600_000],
      [40, 3_600_000],
    ] as const) {
      const d = backoffMs(10_000, n);
      assert.ok(d >= plain && d <= plain * 1.1, `after ${n} failures: ${d} ms`);
    }
  });

  it("retries until the give-up time, never past it, then fails", () => {
    assert.deepEqual(afterFailure(1_000, 1_000, 10, 1), { status: "failed" });
    const next = afterFailure(1_000, 1_030, 100, 1);
    assert.deepEqual(next, { status: "pending", nextAttemptMs: 1_030 });
    const early = afterFailure(1_000, 100_000, 100, 2);
    assert.ok(early.status === "pending" && early.nextAttemptMs >= 1_200 && early.nextAttemptMs <= 1_220);
  });
});
