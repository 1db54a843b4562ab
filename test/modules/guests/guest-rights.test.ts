/**
 * export-social-user and erase-social-user: the export holds everything about the guest; erasure
 * leaves none of the guest's personal values in ANY table (every table is read, so a table added
 * later that keeps guest data fails here), keeps analytics totals, is isolated per account and
 * refused to read-only sub-users; set-account-retention and the retention job.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sql } from "kysely";
import { runRetention } from "../../../src/modules/guests/guest-rights.service.js";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { makeSubUser } from "../../helpers/sub-users.js";
import { createLocation, login } from "./guests-fixtures.js";

/** Tables with a guest_id or client_mac column, all handled by erasure. A new one must be handled there and added here. */
const GUEST_DATA_TABLES = [
  "consent_events",
  "messages",
  "survey_answers",
  "daily_usage",
  "daily_visitors",
  "guest_locations",
  "guest_macs",
  "logins",
  "passpoint_credentials",
  "portal_credentials",
  "portal_grants",
  "radius_sessions",
].sort();

async function tableNames(t: TestApp): Promise<string[]> {
  if (t.dialect === "sqlite") {
    const r = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(t.db);
    return r.rows.map((x) => x.name).sort();
  }
  const r = await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(t.db);
  return r.rows.map((x) => x.name).sort();
}

async function columnsOf(t: TestApp, table: string): Promise<string[]> {
  if (t.dialect === "sqlite") {
    const r = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(t.db);
    return r.rows.map((x) => x.name);
  }
  const r = await sql<{ name: string }>`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ${table}`.execute(t.db);
  return r.rows.map((x) => x.name);
}

async function allRows(t: TestApp, table: string): Promise<Record<string, unknown>[]> {
  return (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(t.db)).rows;
}

const MAC_A = "AA:BB:CC:00:00:01";
const MAC_A2 = "AA:BB:CC:00:00:02";
const MAC_B = "AA:BB:CC:00:00:09";
const EMAIL_A = "erase.me@example.com";
const PHONE_A = "+15550001111";

for (const dialect of DIALECTS) {
  describe(`guest data rights (${dialect})`, () => {
    let t: TestApp;
    let loc: number;
    let device: number;
    let guestA: number;
    let guestB: number;
    const range = { from_date: "2026-03-01", to_date: "2026-03-05" };

    before(async () => {
      t = await createTestApp(dialect);
      loc = await createLocation(t, "America/Chicago", "Cafe");
      const dev = await t.call("POST", "create-device", { device_name: "AP", model_id: "openwrt-generic", mac_address: "02:00:00:00:AA:01" });
      device = dev.body.device_id;
      const profile = { email: EMAIL_A, full_name: "Erin Erasable", phone_number: PHONE_A, gender: "female" };
      const base = { accountId: t.accountId, locationId: loc, timezone: "America/Chicago", identity: EMAIL_A, profile };
      guestA = (await login(t, { ...base, at: "2026-03-01T15:00:00Z", clientMac: MAC_A })).guestId;
      await login(t, { ...base, at: "2026-03-02T15:00:00Z", clientMac: MAC_A2 });
      guestB = (await login(t, { ...base, identity: "keep@example.com", profile: { email: "keep@example.com" }, at: "2026-03-02T16:00:00Z", clientMac: MAC_B }))
        .guestId;
      // What the portal and RADIUS would have stored about guest A.
      await t.db
        .insertInto("radius_sessions")
        .values({
          device_id: device,
          guest_id: guestA,
          location_id: loc,
          acct_session_id: "s1",
          username: "portal-user-a",
          client_mac: MAC_A,
          started_at: "2026-03-01 15:00:00",
          updated_at: "2026-03-01 16:00:00",
          stopped_at: "2026-03-01 16:00:00",
          session_time: 3600,
          input_octets: 1000,
          output_octets: 5000,
          terminate_cause: "User-Request",
          framed_ip: "10.1.0.77",
        })
        .execute();
      await t.db.insertInto("daily_usage").values({ guest_id: guestA, location_id: loc, day: "2026-03-01", octets: 6000 }).execute();
      await t.db
        .insertInto("portal_credentials")
        .values({
          username: "cred-a",
          password: "pw",
          guest_id: guestA,
          location_id: loc,
          device_id: device,
          client_mac: MAC_A,
          created_at: "2026-03-01 15:00:00",
          expires_at: "2026-03-01 15:05:00",
          used_at: null,
        })
        .execute();
      await t.db
        .insertInto("sms_codes")
        .values({ location_id: loc, phone_number: PHONE_A, code_hash: "h", attempts: 0, created_at: "2026-03-01 14:59:00", expires_at: "2026-03-01 15:09:00", used_at: null })
        .execute();
      await t.db
        .insertInto("portal_grants")
        .values({ location_id: loc, client_ip: "10.1.0.77", client_mac: MAC_A2, granted_at: "2026-03-02 15:00:00", expires_at: "2026-03-02 16:00:00" })
        .execute();
      // What guest automations would have stored: a message and its log, a survey answer, an unsubscribe, a STOP.
      const now = Date.parse("2026-03-02T15:00:00Z");
      const message = (
        await t.db
          .insertInto("messages")
          .values({ account_id: t.accountId, kind: "automation", channel: "email", automation_id: null, guest_id: guestA, location_id: loc, sub_user_id: null, dedupe_key: `erase-${guestA}`, trigger_at: "2026-03-02 15:00:00", recipient: EMAIL_A, subject: "Hi Erin", content: `To: ${EMAIL_A}\r\n\r\nHi Erin Erasable`, created_ms: now, next_attempt_ms: now, last_status: 250, last_error: null, finished_ms: now, provider_id: "250 ok" })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
      await t.db.insertInto("message_attempts").values({ message_id: message, channel: "email", attempted_ms: now, duration_ms: 10, status_code: 250, error: null }).execute();
      await t.db.insertInto("survey_answers").values({ account_id: t.accountId, message_id: message, automation_id: 1, guest_id: guestA, location_id: loc, score: 8, comment: "Erin liked it", answered_at: "2026-03-02 16:00:00", local_day: "2026-03-02" }).execute();
      await t.db.insertInto("consent_events").values({ account_id: t.accountId, guest_id: guestA, marketing_opt_in: 0, source: "one-click", message_id: message, changed_at: "2026-03-02 17:00:00" }).execute();
      // A Passpoint credential the guest's phone joins with (EAP-TTLS): erased with the guest.
      const passpoint = await t.call("POST", "create-or-update-passpoint", { location_ids: String(loc), ssid: "Cafe Secure", domain: "wifi.cafe.example", realm: "cafe.example" });
      assert.equal(passpoint.statusCode, 200, JSON.stringify(passpoint.body));
      const configId = (await t.db.selectFrom("passpoint_configs").select("id").where("account_id", "=", t.accountId).executeTakeFirstOrThrow()).id;
      await t.db
        .insertInto("passpoint_credentials")
        .values({ account_id: t.accountId, guest_id: guestA, config_id: configId, location_id: loc, kind: "ttls", username: "pp-erinerasable01@cafe.example", serial: null, fingerprint_sha256: null, certificate: null, cui: "cui-erin-erasable", issued_at: "2026-03-02 15:00:00", expires_at: "2027-03-02 15:00:00", revoked_at: null, last_used_at: null })
        .execute();
      await t.db.insertInto("sms_opt_outs").values({ phone_number: PHONE_A, opted_out_at: "2026-03-02 17:00:00" }).execute();
    });
    after(async () => t?.close());

    async function analytics() {
      const logins = await t.call("GET", "get-social-logins", { location_id: loc, ...range });
      const visits = await t.call("GET", "get-visits", { location_id: loc, ...range });
      const list = await t.call("GET", "social-user-list", { location_ids: loc, ...range });
      const usage = await t.db.selectFrom("daily_usage").select((eb) => eb.fn.sum<number>("octets").as("n")).executeTakeFirst();
      const radius = await t.db.selectFrom("radius_sessions").select((eb) => eb.fn.sum<number>("session_time").as("n")).executeTakeFirst();
      assert.equal(logins.statusCode, 200, JSON.stringify(logins.body));
      assert.equal(visits.statusCode, 200, JSON.stringify(visits.body));
      return { logins: logins.body, visits: visits.body, guests: list.body.data.length, usage: Number(usage?.n), radius: Number(radius?.n) };
    }

    it("exports everything held about the guest", async () => {
      const res = await t.call("GET", "export-social-user", { user_id: guestA });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      const d = res.body.data;
      assert.equal(d.guest.id, guestA);
      assert.equal(d.guest.email, EMAIL_A);
      assert.equal(d.guest.phone_number, PHONE_A);
      assert.deepEqual(d.macs, [MAC_A, MAC_A2]);
      assert.equal(d.logins.length, 2);
      assert.equal(d.radius_sessions.length, 1);
      assert.equal(d.radius_sessions[0].framed_ip, "10.1.0.77");
      assert.equal(d.daily_usage[0].octets, 6000);
      assert.equal(d.portal_credentials.length, 1);
      assert.equal(d.portal_credentials[0].password, undefined, "no password in the export");
      assert.equal(d.sms_codes.length, 1);
      assert.equal(d.sms_codes[0].code_hash, undefined);
      assert.equal(d.portal_grants.length, 1);
      assert.equal(d.visits.length, 2);
      assert.equal(JSON.stringify(d).includes("keep@example.com"), false, "nothing of another guest");
    });

    it("isolates accounts and refuses read-only sub-users the erasure", async () => {
      const other = await t.newAccount();
      for (const path of ["export-social-user", "erase-social-user"]) {
        const res = await t.call(path === "erase-social-user" ? "POST" : "GET", path, { user_id: guestA }, { identifier: other.identifier });
        assert.equal(res.statusCode, 400);
        assert.deepEqual(res.body, { status: "error", message: { user_id: ["The selected user_id is invalid."] } });
      }
      const ro = await makeSubUser(t, { readonly: true });
      const denied = await t.call("POST", "erase-social-user", { user_id: guestA }, { identifier: ro.identifier });
      assert.notEqual(denied.statusCode, 200);
      assert.equal(denied.body.status, "error");
      assert.equal((await t.call("GET", "export-social-user", { user_id: guestA }, { identifier: ro.identifier })).statusCode, 200);
      const bad = await t.call("POST", "erase-social-user", { user_id: "abc" });
      assert.equal(bad.statusCode, 400);
      assert.ok(bad.body.message.user_id);
      assert.ok(await t.db.selectFrom("guests").select("id").where("id", "=", guestA).executeTakeFirst(), "nothing erased by refused calls");
    });

    it("erases every personal value from every table and keeps the analytics totals", async () => {
      const hook = await t.call("POST", "create-or-update-webhook", { url: "https://93.184.215.14/hook", events: "guest.erased" });
      assert.equal(hook.statusCode, 200, JSON.stringify(hook.body));
      const before = await analytics();
      const res = await t.call("POST", "erase-social-user", { user_id: guestA });
      assert.equal(res.statusCode, 200, JSON.stringify(res.body));
      assert.deepEqual(await analytics(), before, "analytics totals unchanged");

      const tables = await tableNames(t);
      const holding: string[] = [];
      for (const table of tables) {
        const cols = await columnsOf(t, table);
        if (cols.includes("guest_id") || cols.includes("client_mac")) holding.push(table);
        const rows = await allRows(t, table);
        const text = JSON.stringify(rows);
        for (const secret of [EMAIL_A, PHONE_A, MAC_A, MAC_A2, "Erin Erasable", "10.1.0.77", "portal-user-a", "cred-a", "pp-erinerasable01", "cui-erin-erasable"]) {
          assert.equal(text.includes(secret), false, `${table} still holds ${secret}`);
        }
        if (cols.includes("guest_id")) assert.equal(rows.filter((r) => Number(r.guest_id) === guestA).length, 0, `${table} still names guest ${guestA}`);
        if (table === "guests") assert.equal(rows.filter((r) => Number(r.id) === guestA).length, 0);
      }
      assert.deepEqual(holding.sort(), GUEST_DATA_TABLES, "a table holds guest_id or client_mac: handle it in erasure (guest-rights.repository.ts) and list it here");

      // The other guest is untouched.
      const b = await t.call("GET", "export-social-user", { user_id: guestB });
      assert.equal(b.body.data.guest.email, "keep@example.com");
      assert.deepEqual(b.body.data.macs, [MAC_B]);
      // The id is gone; a second erasure is refused as an unknown guest.
      assert.equal((await t.call("POST", "erase-social-user", { user_id: guestA })).statusCode, 400);
      // guest.erased is in the outbox with ids only.
      const events = await t.db.selectFrom("webhook_deliveries").select(["event_type", "payload"]).execute();
      assert.equal(events.length, 1);
      assert.equal(events[0]?.event_type, "guest.erased");
      assert.equal(JSON.parse(events[0]?.payload ?? "{}").data.guest_id, guestA);
    });

    it("set-account-retention: owner only, bounded; the job erases guests not seen for N days, idempotently", async () => {
      const ro = await makeSubUser(t, { readonly: false });
      assert.equal((await t.call("POST", "set-account-retention", { retention_days: 30 }, { identifier: ro.identifier })).statusCode !== 200, true);
      for (const bad of ["-1", "3651", "x", ""]) {
        const res = await t.call("POST", "set-account-retention", { retention_days: bad });
        assert.equal(res.statusCode, 400, bad);
        assert.ok(res.body.message.retention_days, bad);
      }
      const recent = await login(t, { accountId: t.accountId, locationId: loc, timezone: "America/Chicago", identity: "recent@example.com", at: "2026-04-10T12:00:00Z" });
      // Off by default: nothing is erased.
      assert.equal(await runRetention(t.deps, new Date("2026-04-20T00:00:00Z")), 0);
      const ok = await t.call("POST", "set-account-retention", { retention_days: 30 });
      assert.equal(ok.statusCode, 200, JSON.stringify(ok.body));
      const before = await analytics();
      // On 2026-04-20, guest B (last seen 2026-03-02) is past 30 days; the recent guest is not.
      assert.equal(await runRetention(t.deps, new Date("2026-04-20T00:00:00Z")), 1);
      assert.equal(await t.db.selectFrom("guests").select("id").where("id", "=", guestB).executeTakeFirst(), undefined);
      assert.ok(await t.db.selectFrom("guests").select("id").where("id", "=", recent.guestId).executeTakeFirst());
      assert.equal(await runRetention(t.deps, new Date("2026-04-20T00:00:00Z")), 0, "idempotent: a second run finds nothing");
      assert.deepEqual(await analytics(), before);
    });

    it("two erasures of one guest at once: one succeeds, the other finds no guest; one guest.erased", async () => {
      for (let round = 0; round < 10; round++) {
        const { guestId } = await login(t, {
          accountId: t.accountId,
          locationId: loc,
          timezone: "America/Chicago",
          identity: `race${round}@example.com`,
          at: "2026-04-11T12:00:00Z",
          clientMac: `02:AA:00:00:00:${String(round).padStart(2, "0")}`,
        });
        const before = Number((await t.db.selectFrom("guests").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
        const events = async () =>
          Number((await t.db.selectFrom("webhook_deliveries").select((eb) => eb.fn.countAll<number>().as("n")).where("event_type", "=", "guest.erased").executeTakeFirstOrThrow()).n);
        const queued = await events();
        const answers = await Promise.all([1, 2].map(() => t.call("POST", "erase-social-user", { user_id: guestId })));
        assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 400], JSON.stringify(answers.map((a) => a.body)));
        assert.equal(Number((await t.db.selectFrom("guests").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n), before, "one stand-in replaces the guest");
        assert.equal(await events(), queued + 1);
      }
    });

    if (dialect === "postgres") {
      it("runs on one instance at a time (PostgreSQL advisory lock)", async () => {
        const conn = t.db.connection();
        await conn.execute(async (c) => {
          await sql`select pg_advisory_lock(hashtext(current_schema() || '.guestwifi.retention'))`.execute(c);
          try {
            assert.equal(await runRetention(t.deps), -1);
          } finally {
            await sql`select pg_advisory_unlock(hashtext(current_schema() || '.guestwifi.retention'))`.execute(c);
          }
        });
        assert.notEqual(await runRetention(t.deps), -1);
      });
    }
  });
}
