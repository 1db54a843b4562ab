/** The session memo's bound: what it keeps when more sessions are open than it holds, and what it drops. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type KnownSession, SessionMemo } from "../../src/radius/session-memo.js";

const session = (id: number): KnownSession => ({ id, guest_id: id, location_id: 1, framed_ip: null, session_time: 0, input_octets: 0, output_octets: 0 });

describe("session memo", () => {
  it("keeps its bound's worth of sessions known when more report in turn than it holds", () => {
    // 2,000 sessions reporting one after another, each at its interval, into a memo of 1,000:
    // the accounting path looks each one up, then writes what it committed.
    let clock = 0;
    const memo = new SessionMemo(1000, 900_000, () => clock);
    let hits = 0;
    for (let round = 0; round < 5; round++) {
      for (let s = 0; s < 2000; s++) {
        clock += 150; // 2,000 packets every 300 s
        const key = SessionMemo.key(7, `s-${s}`);
        if (round > 0 && memo.get(key)?.id === s) hits++;
        memo.set(key, session(s));
        assert.ok(memo.size <= 1000);
      }
    }
    // Dropping the least recently written would find none of them (each is dropped just before its next packet).
    assert.equal(hits, 4 * 1000);
  });

  it("drops sessions that stopped reporting, full or not", () => {
    let clock = 0;
    const memo = new SessionMemo(10, 900_000, () => clock);
    memo.set("1|lost", session(1));
    memo.set("1|alive", session(2));
    clock += 600_000;
    memo.set("1|alive", session(2));
    clock += 400_000; // "lost" was last written 1,000 s ago, "alive" 400 s ago
    memo.set("1|new", session(3));
    assert.equal(memo.get("1|lost"), undefined);
    assert.equal(memo.get("1|alive")?.id, 2);
    assert.equal(memo.get("1|new")?.id, 3);
    assert.equal(memo.size, 2);
  });

  it("takes a new session in when a stale one makes room, and forgets a closed one", () => {
    let clock = 0;
    const memo = new SessionMemo(2, 1000, () => clock);
    memo.set("a", session(1));
    memo.set("b", session(2));
    memo.set("c", session(3));
    assert.equal(memo.get("c"), undefined, "full of sessions still reporting: not taken in");
    clock += 1000;
    memo.set("c", session(3));
    assert.equal(memo.get("c")?.id, 3);
    memo.set("c", undefined);
    assert.equal(memo.get("c"), undefined);
    assert.equal(new SessionMemo(0, 1000).size, 0);
    const none = new SessionMemo(0, 1000);
    none.set("a", session(1));
    assert.equal(none.get("a"), undefined, "RADIUS_SESSION_MEMO_ENTRIES=0 remembers nothing");
  });
});
