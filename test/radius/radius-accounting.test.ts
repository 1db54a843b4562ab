/** Accounting-Requests from radclient (and exact bytes, for retransmission), on SQLite and PostgreSQL. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { localDay } from "../../src/modules/guests/local-day.js";
import { issueCredential } from "../../src/radius/portal-credentials.js";
import { DIALECTS } from "../helpers/db.js";
import { openPeer, radclient, rawExchange } from "./radclient.js";
import { type RadiusEnv, createRadiusEnv, dashed, makeDevice, makeGuest, makeLocation, papRequest, randomMac } from "./radius-fixtures.js";
import { countsOf, radclientCounted } from "./radius-counts.js";
import { accessRequestBytes, accountingRequestBytes, decodeReply } from "./raw-packets.js";

const GIGA = 2 ** 32;

for (const dialect of DIALECTS) {
  describe(`radius accounting (${dialect})`, () => {
    let t: RadiusEnv;
    let locationId: number;
    let ap: { id: number; mac: string; secret: string };
    before(async () => {
      t = await createRadiusEnv(dialect);
      locationId = await makeLocation(t, { daily_bandwidth_cap: 10 * GIGA });
      ap = await makeDevice(t, locationId);
    });
    after(async () => t.close());

    const acct = (lines: string[], secret = ap.secret) =>
      radclient(t.radius.acctPort, "acct", secret, [...lines, `Called-Station-Id = "${dashed(ap.mac)}:GuestWiFi"`]);
    const profile = async (guestId: number) => {
      const res = await t.call("GET", "get-social-user-profile", { user_ids: String(guestId) });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      return res.body.data[0];
    };
    const usageToday = async (guestId: number) => {
      const row = await t.db
        .selectFrom("daily_usage")
        .select("octets")
        .where("guest_id", "=", guestId)
        .where("location_id", "=", locationId)
        .where("day", "=", localDay(new Date(), "America/Chicago"))
        .executeTakeFirst();
      return row ? Number(row.octets) : 0;
    };

    it("keeps the guest's totals from Start, Interim-Update and Stop, with Gigawords, visible through the API", async () => {
      const client = randomMac();
      const guestId = await makeGuest(t, locationId, client);
      const cred = await issueCredential(t.deps, { guestId, locationId, deviceId: ap.id, clientMac: client, ttlSeconds: 60 });
      const session = [`User-Name = "${cred.username}"`, `Acct-Session-Id = "sess-${guestId}"`, `Calling-Station-Id = "${dashed(client)}"`];
      const start = await acct(["Acct-Status-Type = Start", ...session]);
      assert.equal(start.code, "Accounting-Response", start.output);
      const p0 = await profile(guestId);
      assert.equal(p0.radius_session_total_time, 0);
      assert.match(p0.radius_session_first_datetime, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

      await acct(["Acct-Status-Type = Interim-Update", ...session, "Acct-Session-Time = 300", "Acct-Input-Octets = 1000", "Acct-Output-Octets = 5000"]);
      const r = await acct([
        "Acct-Status-Type = Stop",
        ...session,
        "Acct-Session-Time = 900",
        "Acct-Input-Octets = 3000",
        "Acct-Output-Octets = 7",
        "Acct-Output-Gigawords = 1",
        "Acct-Terminate-Cause = User-Request",
      ]);
      assert.equal(r.code, "Accounting-Response");
      const p = await profile(guestId);
      assert.equal(p.radius_session_total_time, 900);
      assert.equal(p.radius_total_bandwidth_input, 3000);
      assert.equal(p.radius_total_bandwidth_output, GIGA + 7);
      assert.match(p.radius_session_last_datetime, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      assert.equal(await usageToday(guestId), 3000 + GIGA + 7);
      const s = await t.db.selectFrom("radius_sessions").selectAll().where("acct_session_id", "=", `sess-${guestId}`).executeTakeFirstOrThrow();
      assert.equal(s.guest_id, guestId);
      assert.notEqual(s.stopped_at, null);
      assert.equal(s.terminate_cause, "User-Request");

      // A late Interim-Update (lower counters) and a second Stop add nothing.
      await acct(["Acct-Status-Type = Interim-Update", ...session, "Acct-Session-Time = 300", "Acct-Input-Octets = 1000"]);
      await acct(["Acct-Status-Type = Stop", ...session, "Acct-Session-Time = 900", "Acct-Input-Octets = 3000", "Acct-Output-Octets = 7", "Acct-Output-Gigawords = 1"]);
      const again = await profile(guestId);
      assert.equal(again.radius_session_total_time, 900);
      assert.equal(again.radius_total_bandwidth_input, 3000);
      assert.equal(again.radius_total_bandwidth_output, GIGA + 7);
    });

    it("finds a returning guest's sessions by client MAC and counts the visit", async () => {
      const client = randomMac();
      const guestId = await makeGuest(t, locationId, client);
      await t.db.deleteFrom("daily_visitors").where("guest_id", "=", guestId).execute();
      const mac = dashed(client);
      await acct(["Acct-Status-Type = Start", `User-Name = "${mac}"`, `Acct-Session-Id = "mac-${guestId}"`, `Calling-Station-Id = "${mac}"`]);
      await acct(["Acct-Status-Type = Interim-Update", `User-Name = "${mac}"`, `Acct-Session-Id = "mac-${guestId}"`, `Calling-Station-Id = "${mac}"`, "Acct-Session-Time = 60", "Acct-Input-Octets = 10", "Acct-Output-Octets = 20"]);
      const p = await profile(guestId);
      assert.equal(p.radius_session_total_time, 60);
      assert.equal(p.radius_total_bandwidth_input + p.radius_total_bandwidth_output, 30);
      const visitors = await t.db.selectFrom("daily_visitors").selectAll().where("guest_id", "=", guestId).execute();
      assert.equal(visitors.length, 1);
    });

    it("answers for unknown users too, and never answers a wrong secret", async () => {
      const r = await acct(["Acct-Status-Type = Start", 'User-Name = "nobody"', 'Acct-Session-Id = "unknown-1"', `Calling-Station-Id = "${dashed(randomMac())}"`]);
      assert.equal(r.code, "Accounting-Response");
      const s = await t.db.selectFrom("radius_sessions").selectAll().where("acct_session_id", "=", "unknown-1").executeTakeFirstOrThrow();
      assert.equal(s.guest_id, null);
      const wrong = await radclientCounted(countsOf(t.radiusMetrics), t.radius.acctPort, "acct", "wrong-secret", ["Acct-Status-Type = Start", 'User-Name = "nobody"', 'Acct-Session-Id = "unknown-2"', `Called-Station-Id = "${dashed(ap.mac)}:GuestWiFi"`]);
      assert.deepEqual([wrong.code, wrong.counted], [undefined, { drop: 1, error: 0, other: 0 }], "dropped, as the server counts it (not waited out)");
      assert.equal(await t.db.selectFrom("radius_sessions").selectAll().where("acct_session_id", "=", "unknown-2").executeTakeFirst(), undefined);
    });

    it("closes only that access point's open sessions on Accounting-On", async () => {
      const other = await makeDevice(t, locationId);
      await acct(["Acct-Status-Type = Start", 'Acct-Session-Id = "reboot-a"']);
      await radclient(t.radius.acctPort, "acct", other.secret, ["Acct-Status-Type = Start", 'Acct-Session-Id = "reboot-b"', `NAS-Identifier = "${other.mac}"`]);
      const r = await acct(["Acct-Status-Type = Accounting-On"]);
      assert.equal(r.code, "Accounting-Response");
      const rows = await t.db.selectFrom("radius_sessions").select(["acct_session_id", "stopped_at", "terminate_cause"]).where("acct_session_id", "in", ["reboot-a", "reboot-b"]).orderBy("acct_session_id").execute();
      assert.notEqual(rows[0].stopped_at, null);
      assert.equal(rows[0].terminate_cause, "NAS-Reboot");
      assert.equal(rows[1].stopped_at, null);
    });

    it("answers retransmissions on both ports from the cache, processing each request once", async () => {
      const client = randomMac();
      const guestId = await makeGuest(t, locationId, client);
      const peer = await openPeer();
      try {
        const cred = await issueCredential(t.deps, { guestId, locationId, deviceId: ap.id, clientMac: client, ttlSeconds: 60 });
        const access = accessRequestBytes(ap.secret, 9, [
          ["User-Name", cred.username],
          ["User-Password", cred.password],
          ["Called-Station-Id", dashed(ap.mac)],
          ["Calling-Station-Id", dashed(client)],
        ]);
        const [accept] = await peer.exchange(t.radius.authPort, [access]);
        assert.equal(decodeReply(accept).code, "Access-Accept");
        // Processed again, the used credential would now be rejected.
        const [resent] = await peer.exchange(t.radius.authPort, [access]);
        assert.deepEqual(resent, accept);
        const [fresh] = await peer.exchange(t.radius.authPort, [accessRequestBytes(ap.secret, 10, [
          ["User-Name", cred.username],
          ["User-Password", cred.password],
          ["Called-Station-Id", dashed(ap.mac)],
          ["Calling-Station-Id", dashed(client)],
        ])]);
        assert.equal(decodeReply(fresh).code, "Access-Reject", "a new request (new identifier) is processed");

        const interim = accountingRequestBytes(ap.secret, 77, [
          ["Acct-Status-Type", "Interim-Update"],
          ["Acct-Session-Id", `retx-${guestId}`],
          ["Called-Station-Id", dashed(ap.mac)],
          ["Calling-Station-Id", dashed(client)],
          ["Acct-Session-Time", 30],
          ["Acct-Input-Octets", 4000],
        ]);
        const [first] = await peer.exchange(t.radius.acctPort, [interim]);
        assert.equal(decodeReply(first).code, "Accounting-Response");
        // Processed again, the copy would recreate the session and count its octets a second time.
        await t.db.deleteFrom("radius_sessions").where("acct_session_id", "=", `retx-${guestId}`).execute();
        const copies = await peer.exchange(t.radius.acctPort, [interim, interim]);
        assert.deepEqual(copies, [first, first]);
        assert.equal(await t.db.selectFrom("radius_sessions").selectAll().where("acct_session_id", "=", `retx-${guestId}`).executeTakeFirst(), undefined);
        const p = await profile(guestId);
        assert.equal(p.radius_total_bandwidth_input, 4000);
        assert.equal(p.radius_session_total_time, 30);
      } finally {
        await peer.close();
      }
    });

    it("counts concurrent Interim-Updates of one session exactly once", async () => {
      const client = randomMac();
      const guestId = await makeGuest(t, locationId, client);
      const packets = Array.from({ length: 24 }, (_, i) =>
        accountingRequestBytes(ap.secret, i, [
          ["Acct-Status-Type", "Interim-Update"],
          ["Acct-Session-Id", `burst-${guestId}`],
          ["Called-Station-Id", dashed(ap.mac)],
          ["Calling-Station-Id", dashed(client)],
          ["Acct-Session-Time", (i + 1) * 10],
          ["Acct-Input-Octets", (i + 1) * 1000],
          ["Acct-Output-Octets", (i + 1) * 3],
        ]),
      );
      const answers = await rawExchange(t.radius.acctPort, packets.reverse());
      assert.equal(answers.length, 24);
      const p = await profile(guestId);
      assert.equal(p.radius_session_total_time, 240);
      assert.equal(p.radius_total_bandwidth_input, 24_000);
      assert.equal(p.radius_total_bandwidth_output, 72);
      assert.equal(await usageToday(guestId), 24_072);
    });

    it("adds up a burst of Interim-Updates of several known sessions of one guest, a Stop among them, once each", async () => {
      const client = randomMac();
      const guestId = await makeGuest(t, locationId, client);
      const sessions = 6;
      const interim = (s: number, k: number, status = "Interim-Update") =>
        accountingRequestBytes(ap.secret, s * 5 + k, [
          ["Acct-Status-Type", status],
          ["Acct-Session-Id", `many-${guestId}-${s}`],
          ["Called-Station-Id", dashed(ap.mac)],
          ["Calling-Station-Id", dashed(client)],
          ["Acct-Session-Time", k * 60],
          ["Acct-Input-Octets", k * 1000 + s],
          ["Acct-Output-Octets", k * 10],
        ]);
      const burst = (k: number) => Array.from({ length: sessions }, (_, s) => interim(s, k));
      const send = async (packets: Buffer[]) => assert.equal((await rawExchange(t.radius.acctPort, packets)).length, packets.length);
      // The first packet of each session stores it; the bursts then find every one known: the
      // second has nothing else (one statement), the third a Stop after session 0's Interim-Update.
      await send(burst(1));
      await send(burst(2));
      await send([...burst(3), interim(0, 4, "Stop")]);
      const p = await profile(guestId);
      const input = 4000 + Array.from({ length: sessions - 1 }, (_, s) => 3000 + s + 1).reduce((a, b) => a + b, 0);
      assert.equal(p.radius_total_bandwidth_input, input);
      assert.equal(p.radius_total_bandwidth_output, 40 + (sessions - 1) * 30);
      assert.equal(p.radius_session_total_time, 240 + (sessions - 1) * 180);
      assert.equal(await usageToday(guestId), input + 40 + (sessions - 1) * 30);
      const stopped = await t.db.selectFrom("radius_sessions").select(["stopped_at", "input_octets"]).where("acct_session_id", "=", `many-${guestId}-0`).executeTakeFirstOrThrow();
      assert.notEqual(stopped.stopped_at, null);
      assert.equal(Number(stopped.input_octets), 4000);
    });

    it("opens a burst of new sessions from several clients, each for the guest behind its own MAC (read together on PostgreSQL)", async () => {
      const clients = Array.from({ length: 5 }, () => randomMac());
      const guests: number[] = [];
      for (const client of clients.slice(0, 4)) guests.push(await makeGuest(t, locationId, client));
      const first = (i: number) =>
        accountingRequestBytes(ap.secret, 200 + i, [
          ["Acct-Status-Type", "Interim-Update"],
          ["Acct-Session-Id", `owners-${guests[0]}-${i}`],
          ["Called-Station-Id", dashed(ap.mac)],
          ["Calling-Station-Id", dashed(clients[i])],
          ["Acct-Session-Time", 60],
          ["Acct-Input-Octets", 100 * (i + 1)],
          ["Acct-Output-Octets", 0],
        ]);
      const packets = clients.map((_, i) => first(i));
      assert.equal((await rawExchange(t.radius.acctPort, packets)).length, packets.length);
      const rows = await t.db
        .selectFrom("radius_sessions")
        .select(["acct_session_id", "guest_id"])
        .where("acct_session_id", "like", `owners-${guests[0]}-%`)
        .orderBy("acct_session_id")
        .execute();
      assert.deepEqual(
        rows.map((r) => r.guest_id),
        [...guests, null],
        "each session is its own client's guest's; the stranger's has none",
      );
      for (let i = 0; i < guests.length; i++) assert.equal((await profile(guests[i])).radius_total_bandwidth_input, 100 * (i + 1));
    });

    it("advances sessions it never saw (stored before a restart, or by another instance) from their stored counters, a burst at once, counting each visit once", async () => {
      const clients = Array.from({ length: 3 }, () => randomMac());
      const guests: number[] = [];
      for (const client of clients) guests.push(await makeGuest(t, locationId, client));
      const today = localDay(new Date(), "America/Chicago");
      // Guests 0 and 1 have not been counted today yet; guest 2 has.
      await t.db.deleteFrom("daily_visitors").where("guest_id", "in", guests.slice(0, 2)).execute();
      const visitsToday = async () =>
        Number(
          (await t.db.selectFrom("daily_visits").select((eb) => eb.fn.sum<number>("count").as("n")).where("location_id", "=", locationId).where("day", "=", today).executeTakeFirst())?.n ?? 0,
        );
      const visitsBefore = await visitsToday();
      const stored = new Date(Date.now() - 600_000).toISOString().slice(0, 19).replace("T", " ");
      const owners = [...guests, null];
      await t.db
        .insertInto("radius_sessions")
        .values(
          owners.map((guestId, i) => ({
            device_id: ap.id, guest_id: guestId, location_id: locationId, acct_session_id: `recalled-${guests[0]}-${i}`, username: "u",
            client_mac: i < 3 ? clients[i] : "02:00:00:00:00:99", started_at: stored, updated_at: stored, stopped_at: null,
            session_time: 600, input_octets: 1000, output_octets: 100, framed_ip: null, nas_ip: "127.0.0.1",
          })),
        )
        .execute();
      /** Session i's Interim-Update with these counters (its input octets plus i). */
      const interims = (firstId: number, time: number, input: number) =>
        owners.map((_, i) =>
          accountingRequestBytes(ap.secret, firstId + i, [
            ["Acct-Status-Type", "Interim-Update"],
            ["Acct-Session-Id", `recalled-${guests[0]}-${i}`],
            ["Called-Station-Id", dashed(ap.mac)],
            ["Calling-Station-Id", dashed(i < 3 ? clients[i] : "02:00:00:00:00:99")],
            ["Acct-Session-Time", time],
            ["Acct-Input-Octets", input + i],
            ["Acct-Output-Octets", 100],
          ]),
        );
      const packets = interims(230, 900, 1500);
      assert.equal((await rawExchange(t.radius.acctPort, packets)).length, packets.length);
      for (let i = 0; i < guests.length; i++) {
        const p = await profile(guests[i]);
        assert.equal(p.radius_total_bandwidth_input, 500 + i, "only what grew since the stored counters");
        assert.equal(p.radius_session_total_time, 300);
        assert.equal(await usageToday(guests[i]), 500 + i);
        const visitors = await t.db.selectFrom("daily_visitors").select("day").where("guest_id", "=", guests[i]).where("location_id", "=", locationId).where("day", "=", today).execute();
        assert.equal(visitors.length, 1, `guest ${i} counted once today`);
      }
      assert.equal(await visitsToday(), visitsBefore + 2, "the two guests not yet counted today");
      const rows = await t.db.selectFrom("radius_sessions").select(["input_octets", "session_time", "stopped_at"]).where("acct_session_id", "like", `recalled-${guests[0]}-%`).orderBy("acct_session_id").execute();
      assert.deepEqual(rows.map((r) => [Number(r.input_octets), Number(r.session_time), r.stopped_at]), [[1500, 900, null], [1501, 900, null], [1502, 900, null], [1503, 900, null]]);
      // Their next Interim-Updates add only what grew again.
      const next = interims(240, 1200, 2000);
      assert.equal((await rawExchange(t.radius.acctPort, next)).length, next.length);
      for (let i = 0; i < guests.length; i++) assert.equal((await profile(guests[i])).radius_total_bandwidth_input, 1000 + i);
      assert.equal(await visitsToday(), visitsBefore + 2);
    });

    it("recalls open sessions in their keys' order and counts a guest's visit at the key's location once (the repository)", async () => {
      const clients = [randomMac(), randomMac()];
      const guests = [await makeGuest(t, locationId, clients[0]), await makeGuest(t, locationId, clients[1])];
      const today = localDay(new Date(), "America/Chicago");
      await t.db.deleteFrom("daily_visitors").where("guest_id", "in", guests).execute();
      const stored = new Date(Date.now() - 600_000).toISOString().slice(0, 19).replace("T", " ");
      const tag = `rc-${guests[0]}`;
      await t.db
        .insertInto("radius_sessions")
        .values(
          [guests[0], guests[1], guests[0]].map((guestId, i) => ({
            device_id: ap.id, guest_id: guestId, location_id: locationId, acct_session_id: `${tag}-${i}`, username: "u", client_mac: clients[i % 2],
            started_at: stored, updated_at: stored, stopped_at: i === 2 ? stored : null, session_time: 60, input_octets: 10, output_octets: 1, framed_ip: null, nas_ip: "127.0.0.1",
          })),
        )
        .execute();
      const here = { locationId, day: today };
      const keys = [
        { deviceId: ap.id, acctSessionId: `${tag}-1`, at: here },
        { deviceId: ap.id, acctSessionId: `${tag}-none`, at: here },
        { deviceId: ap.id, acctSessionId: `${tag}-2`, at: here },
        // Heard at another location than the session's: read, but no visit there.
        { deviceId: ap.id, acctSessionId: `${tag}-0`, at: { locationId: locationId + 100_000, day: today } },
      ];
      const visitors = async (guestId: number) =>
        (await t.db.selectFrom("daily_visitors").select("day").where("guest_id", "=", guestId).where("location_id", "=", locationId).where("day", "=", today).execute()).length;
      for (let round = 0; round < 2; round++) {
        const recalled = await t.deps.radius.recallOpenSessions(t.db, keys, () => false);
        assert.deepEqual(
          Array.from(recalled.found, (s) => s?.guest_id),
          [guests[1], undefined, undefined, guests[0]],
          "open ones in order; none for an unknown or a stopped session",
        );
        assert.deepEqual(recalled.visits, [{ locationId, day: today, guestId: guests[1] }]);
        assert.equal(await visitors(guests[1]), 1, `round ${round}: counted once`);
        assert.equal(await visitors(guests[0]), 0, "not at the location it was heard at");
      }
    });

    it("rejects the next login once accounting has used up the daily cap", async () => {
      const client = randomMac();
      const guestId = await makeGuest(t, locationId, client);
      const session = [`Acct-Session-Id = "cap-${guestId}"`, `Calling-Station-Id = "${dashed(client)}"`];
      await acct(["Acct-Status-Type = Interim-Update", ...session, "Acct-Input-Octets = 5", "Acct-Output-Octets = 0", "Acct-Output-Gigawords = 10"]);
      const cred = await issueCredential(t.deps, { guestId, locationId, deviceId: ap.id, clientMac: client, ttlSeconds: 60 });
      const r = await radclient(t.radius.authPort, "auth", ap.secret, papRequest(ap.mac, client, cred.username, cred.password));
      assert.equal(r.code, "Access-Reject", r.output);
      assert.match(r.attributes["Reply-Message"] ?? "", /used up/);
    });

    // Last: every write above (inserts that credit, advances one by one and a batch at once, recalls)
    // went through the statements each database uses; the location's daily totals follow them all.
    it("keeps the location's daily octets equal to its guests' daily usage, through every accounting statement", async () => {
      const day = localDay(new Date(), "America/Chicago");
      const guests = await t.db.selectFrom("daily_usage").select((eb) => eb.fn.sum<string>("octets").as("n")).where("location_id", "=", locationId).where("day", "=", day).executeTakeFirstOrThrow();
      const location = await t.deps.repos.analytics.usageByLocationDay(t.db, [locationId], day, day);
      assert.ok(Number(guests.n) > 0, "the tests above used some");
      assert.deepEqual(location.map((r) => [r.day, Number(r.count)]), [[day, Number(guests.n)]]);
    });
  });
}
