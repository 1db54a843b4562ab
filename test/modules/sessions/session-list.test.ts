/** GET /api/session-list: who is online now, from accounting sent by radclient, on SQLite and PostgreSQL. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { toDbDatetime } from "../../../src/db/time.js";
import { LIVE_SESSION_CHUNK } from "../../../src/modules/sessions/sessions.repository.js";
import { DIALECTS } from "../../helpers/db.js";
import { radclient } from "../../radius/radclient.js";
import { type RadiusEnv, createRadiusEnv, dashed, makeDevice, makeGuest, makeLocation, randomMac } from "../../radius/radius-fixtures.js";

const DATETIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

for (const dialect of DIALECTS) {
  describe(`session-list (${dialect})`, () => {
    let t: RadiusEnv;
    let locationId: number;
    let otherLocationId: number;
    let ap: { id: number; mac: string; secret: string };
    let otherAp: { id: number; mac: string; secret: string };
    let n = 0;
    before(async () => {
      t = await createRadiusEnv(dialect);
      locationId = await makeLocation(t);
      otherLocationId = await makeLocation(t);
      ap = await makeDevice(t, locationId);
      otherAp = await makeDevice(t, otherLocationId);
    });
    after(async () => t.close());

    const acct = (device: { mac: string; secret: string }, lines: string[]) =>
      radclient(t.radius.acctPort, "acct", device.secret, [...lines, `Called-Station-Id = "${dashed(device.mac)}:GuestWiFi"`]);
    /** Starts a session of a new guest at `device`'s location; returns what identifies it. */
    async function startSession(device: { mac: string; secret: string }, where: number, extra: string[] = []) {
      const client = randomMac();
      const guestId = await makeGuest(t, where, client);
      const id = `live-${dialect}-${++n}-${Date.now()}`;
      const lines = [`User-Name = "${dashed(client)}"`, `Acct-Session-Id = "${id}"`, `Calling-Station-Id = "${dashed(client)}"`];
      const r = await acct(device, ["Acct-Status-Type = Start", ...lines, ...extra]);
      assert.equal(r.code, "Accounting-Response", r.output);
      return { client, guestId, id, lines };
    }
    const list = async (params: Record<string, unknown>, identifier?: string) => {
      const res = await t.call("GET", "session-list", params, identifier === undefined ? {} : { identifier });
      return res;
    };

    it("lists a started session with its guest, address and access point, follows its counters, and drops it at Stop", async () => {
      const s = await startSession(ap, locationId);
      let res = await list({ location_ids: String(locationId) });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      let mine = res.body.data.find((e: { social_user_id: number }) => e.social_user_id === s.guestId);
      assert.ok(mine, "the started session is listed");
      assert.equal(mine.location_id, locationId);
      assert.equal(mine.client_mac, s.client.toUpperCase());
      assert.equal(mine.ip_address, "", "no address reported yet");
      assert.equal(mine.device_id, ap.id);
      assert.equal(mine.device_mac, ap.mac);
      assert.match(mine.started_at, DATETIME);
      assert.match(mine.last_update, DATETIME);
      assert.deepEqual([mine.duration, mine.bytes_in, mine.bytes_out], [0, 0, 0]);

      // The address arrives with an Interim-Update (after DHCP), with the counters.
      await acct(ap, ["Acct-Status-Type = Interim-Update", ...s.lines, "Framed-IP-Address = 10.1.2.3", "Acct-Session-Time = 120", "Acct-Input-Octets = 1500", "Acct-Output-Octets = 7", "Acct-Output-Gigawords = 1"]);
      // A later packet without it keeps the address.
      await acct(ap, ["Acct-Status-Type = Interim-Update", ...s.lines, "Acct-Session-Time = 240", "Acct-Input-Octets = 2500", "Acct-Output-Octets = 9", "Acct-Output-Gigawords = 1"]);
      res = await list({ location_ids: String(locationId) });
      mine = res.body.data.find((e: { social_user_id: number }) => e.social_user_id === s.guestId);
      assert.equal(mine.ip_address, "10.1.2.3");
      assert.deepEqual([mine.duration, mine.bytes_in, mine.bytes_out], [240, 2500, 2 ** 32 + 9]);

      await acct(ap, ["Acct-Status-Type = Stop", ...s.lines, "Acct-Session-Time = 300", "Acct-Input-Octets = 3000", "Acct-Terminate-Cause = User-Request"]);
      res = await list({ location_ids: String(locationId) });
      assert.equal(res.body.data.find((e: { social_user_id: number }) => e.social_user_id === s.guestId), undefined, "a stopped session is not online");
    });

    it("takes the address from the Start when the gateway sends it there", async () => {
      const s = await startSession(ap, locationId, ["Framed-IP-Address = 192.168.44.5"]);
      const res = await list({ location_ids: String(locationId) });
      const mine = res.body.data.find((e: { social_user_id: number }) => e.social_user_id === s.guestId);
      assert.equal(mine.ip_address, "192.168.44.5");
    });

    it("leaves out a session its gateway has been silent about for three accounting intervals", async () => {
      const s = await startSession(ap, locationId);
      const interval = t.config.radius.interimInterval;
      const setHeard = (secondsAgo: number) =>
        t.db
          .updateTable("radius_sessions")
          .set({ updated_at: toDbDatetime(new Date(Date.now() - secondsAgo * 1000)) })
          .where("acct_session_id", "=", s.id)
          .execute();
      const listed = async () =>
        (await list({ location_ids: String(locationId) })).body.data.some((e: { social_user_id: number }) => e.social_user_id === s.guestId);
      await setHeard(3 * interval - 30);
      assert.equal(await listed(), true, "still live just inside three intervals");
      await setHeard(3 * interval + 30);
      assert.equal(await listed(), false, "gone just past three intervals");
      await acct(ap, ["Acct-Status-Type = Interim-Update", ...s.lines, "Acct-Session-Time = 60"]);
      assert.equal(await listed(), true, "back once the gateway speaks again");
    });

    it("lists only the locations asked for, several at once, and pages by session_id", async () => {
      const here = [await startSession(ap, locationId), await startSession(ap, locationId), await startSession(ap, locationId)];
      const there = await startSession(otherAp, otherLocationId);
      const only = await list({ location_ids: String(otherLocationId) });
      assert.deepEqual(
        only.body.data.map((e: { social_user_id: number }) => e.social_user_id),
        [there.guestId],
      );
      const all: number[] = [];
      let after = 0;
      let pages = 0;
      for (;;) {
        const res = await list({ location_ids: `${locationId},${otherLocationId}`, limit: 2, after_session_id: after });
        assert.equal(res.statusCode, 200, JSON.stringify(res.body));
        assert.ok(res.body.data.length <= 2);
        all.push(...res.body.data.map((e: { session_id: number }) => e.session_id));
        pages++;
        if (res.body.next_after_session_id === null) break;
        after = res.body.next_after_session_id;
        assert.ok(pages < 50, "paging ends");
      }
      assert.deepEqual(all, [...all].sort((a, b) => a - b), "ordered by session_id");
      assert.equal(new Set(all).size, all.length, "no session twice");
      const ids = (await t.db.selectFrom("radius_sessions").select(["id", "acct_session_id"]).execute()).filter((r) =>
        [...here, there].some((s) => s.id === r.acct_session_id),
      );
      for (const r of ids) assert.ok(all.includes(r.id), `session ${r.acct_session_id} is on a page`);
    });

    it("answers pages larger than a chunk read whole, in order, with the next page's cursor exactly when there is one", async () => {
      // A location of its own with 2 * LIVE_SESSION_CHUNK sessions, written straight to the table.
      const where = await makeLocation(t);
      const device = await makeDevice(t, where);
      const count = 2 * LIVE_SESSION_CHUNK;
      const now = toDbDatetime(new Date());
      await t.db
        .insertInto("radius_sessions")
        .values(
          Array.from({ length: count }, (_, i) => ({
            device_id: device.id,
            guest_id: null,
            location_id: where,
            acct_session_id: `bulk-${dialect}-${i}`,
            username: `bulk-${i}`,
            client_mac: "02:00:00:00:00:01",
            started_at: now,
            updated_at: now,
            stopped_at: null,
            session_time: i,
            input_octets: 2 ** 33 + i,
            output_octets: i,
            terminate_cause: null,
            framed_ip: `10.9.${i >> 8}.${i & 255}`,
            nas_ip: null,
          })),
        )
        .execute();
      const page = async (limit: number, after = 0) => {
        const res = await list({ location_ids: String(where), limit, after_session_id: after });
        assert.equal(res.statusCode, 200, JSON.stringify(res.body));
        return res.body as { data: { session_id: number; duration: number; bytes_in: number; ip_address: string; social_user_id: number; guest_name: string }[]; next_after_session_id: number | null };
      };
      const whole = await page(5000);
      assert.equal(whole.data.length, count);
      assert.equal(whole.next_after_session_id, null);
      const ids = whole.data.map((e) => e.session_id);
      assert.deepEqual(ids, [...ids].sort((a, b) => a - b), "in session order across chunks");
      assert.equal(new Set(ids).size, count, "no session twice");
      assert.deepEqual(
        whole.data.map((e) => e.duration),
        Array.from({ length: count }, (_, i) => i),
        "each chunk's records in place",
      );
      assert.deepEqual([whole.data[count - 1].bytes_in, whole.data[count - 1].ip_address], [2 ** 33 + count - 1, `10.9.${(count - 1) >> 8}.${(count - 1) & 255}`]);
      assert.deepEqual([whole.data[0].social_user_id, whole.data[0].guest_name], [0, ""]);
      // Page sizes at, around and past the chunk: the pages put together are the whole list, and
      // only the last one has no cursor (no empty page after a page that ends on a chunk's edge).
      for (const limit of [LIVE_SESSION_CHUNK - 1, LIVE_SESSION_CHUNK, LIVE_SESSION_CHUNK + 1, count - 1, count]) {
        const seen: number[] = [];
        let after = 0;
        for (;;) {
          const p = await page(limit, after);
          assert.ok(p.data.length > 0 && p.data.length <= limit, `limit ${limit}: a page of ${p.data.length}`);
          seen.push(...p.data.map((e) => e.session_id));
          if (p.next_after_session_id === null) break;
          assert.equal(p.data.length, limit, `limit ${limit}: a full page before the last`);
          assert.equal(p.next_after_session_id, p.data[p.data.length - 1].session_id);
          after = p.next_after_session_id;
        }
        assert.deepEqual(seen, ids, `limit ${limit}: the pages make the whole list`);
      }
    });

    it("refuses another account's location and bad parameters in the API's error shape", async () => {
      const other = await t.newAccount();
      const res = await list({ location_ids: String(locationId) }, other.identifier);
      assert.equal(res.statusCode, 400);
      assert.equal(res.body.status, "error");
      assert.ok(res.body.message.location_ids, JSON.stringify(res.body));
      for (const bad of [{ location_ids: String(locationId), limit: 0 }, { location_ids: String(locationId), limit: 5001 }, { location_ids: String(locationId), after_session_id: -1 }, {}]) {
        const r = await list(bad);
        assert.equal(r.statusCode, 400, JSON.stringify(bad));
        assert.equal(r.body.status, "error");
      }
    });
  });
}
