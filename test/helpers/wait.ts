/**
 * Waiting on a condition instead of a fixed time: a test that needs something to have happened
 * (a message sent, a status recorded, a cache expired) polls for it with a generous deadline, so a
 * loaded machine only makes it slower, never wrong. The 60 s default is reached only when what is
 * awaited is broken.
 */
import assert from "node:assert/strict";
import { setTimeout as delay } from "node:timers/promises";

/**
 * Calls `f` until it answers something truthy (and answers that), every `everyMs`; fails naming
 * `what` after `ms`.
 */
export async function waitUntil<T>(what: string, f: () => T | undefined | null | false | Promise<T | undefined | null | false>, ms = 60_000, everyMs = 20): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) assert.fail(`not within ${ms} ms: ${what}`);
    await delay(everyMs);
  }
}
