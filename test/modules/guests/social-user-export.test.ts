/** social-user-export: the CSV, its filters, who may read it, injection and quoting, failures, and a million rows in bounded memory. */
import assert from "node:assert/strict";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { sql } from "kysely";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS, type Dialect, withSeedConnection } from "../../helpers/db.js";
import { makeSubUser } from "../../helpers/sub-users.js";
import { createLocation, login } from "./guests-fixtures.js";

const CHI = "America/Chicago";
const TYO = "Asia/Tokyo";
const HEADER = "social_user_id,name,email,phone,mac,location_id,location,login_type,login_type_name,first_seen_utc,last_seen_utc,visits,data_used_bytes,marketing_opt_in,marketing_opt_in_utc,marketing_version";

/** RFC 4180 parser (CRLF rows, quoted cells with doubled quotes), strict: anything else throws. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    let cell = "";
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error("unterminated quote");
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        cell += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== "," && text[i] !== "\r") {
        if (text[i] === "\n" || text[i] === '"') throw new Error(`bare ${JSON.stringify(text[i])} at ${i}`);
        cell += text[i++];
      }
    }
    row.push(cell);
    if (text[i] === ",") {
      i++;
    } else if (text.startsWith("\r\n", i)) {
      rows.push(row);
      row = [];
      i += 2;
    } else {
      throw new Error(`expected , or CRLF at ${i}`);
    }
  }
  if (row.length > 0) throw new Error("last row without CRLF");
  return rows;
}

/** Rows as objects keyed by the header. */
function records(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  assert.equal(header.join(","), HEADER);
  return rows.map((r) => {
    assert.equal(r.length, header.length, JSON.stringify(r));
    return Object.fromEntries(header.map((h, k) => [h, r[k]]));
  });
}

/** Rows of a million guests at `locationId`, one login each on 2026-03-10, written by SQL in a few seconds. */
async function seedGuests(t: TestApp, dialect: Dialect, accountId: number, locationId: number, count: number, tag: string): Promise<void> {
  const at = "2026-03-10 12:00:00";
  // Bulk inserts of a million rows may take longer than the service's timeouts: a connection without them.
  await withSeedConnection(t, (seed) => seed.transaction().execute(async (db) => {
    if (dialect === "sqlite") {
      await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
        insert into guests (account_id, social_network, network_user_id, email, full_name, phone_number, created_at, updated_at)
        select ${accountId}, 'Cuser', ${tag} || i, 'guest' || i || '@example.com', 'Guest ' || i, '+1555' || i, ${at}, ${at} from n`.execute(db);
    } else {
      await sql`insert into guests (account_id, social_network, network_user_id, email, full_name, phone_number, created_at, updated_at)
        select ${accountId}, 'Cuser', ${tag} || i, 'guest' || i || '@example.com', 'Guest ' || i, '+1555' || i, ${at}, ${at}
        from generate_series(1, ${count}::int) i`.execute(db);
    }
    await sql`insert into guest_locations (guest_id, location_id, campaign_id, first_login_at)
      select id, ${locationId}, 1, ${at} from guests where account_id = ${accountId} and network_user_id like ${`${tag}%`}`.execute(db);
    await sql`insert into logins (account_id, guest_id, location_id, campaign_id, login_type, client_mac, logged_at, local_day)
      select ${accountId}, id, ${locationId}, 1, 'Cuser', 'AA:BB:CC:00:00:01', ${at}, '2026-03-10'
      from guests where account_id = ${accountId} and network_user_id like ${`${tag}%`}`.execute(db);
    if (dialect === "postgres") await sql`analyze guests, guest_locations, logins`.execute(db);
  }));
}

// A full collection before each memory sample, so that the figures are what is held, not garbage not yet collected.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function memory(): NodeJS.MemoryUsage {
  gc();
  return process.memoryUsage();
}

interface Download {
  status: number;
  headers: Record<string, unknown>;
  rows: number;
  bytes: number;
  complete: boolean;
  /** Largest growth of the process's RSS and heap over the start of the download, in bytes. */
  rssGrowth: number;
  heapGrowth: number;
}

/**
 * Downloads over real HTTP (app.inject would hold the whole body), counting rows as they arrive and
 * sampling this process's memory: the server and the client both live here.
 */
const MID_STREAM_ROWS = 200_000;

function download(port: number, path: string, onFirstChunk?: () => Promise<void>): Promise<Download> {
  return new Promise((resolve, reject) => {
    const start = memory();
    let rssMax = start.rss;
    let heapMax = start.heapUsed;
    let rows = 0;
    let bytes = 0;
    let chunks = 0;
    const req = request({ host: "127.0.0.1", port, path }, (res) => {
      let settled = false;
      const finish = (complete: boolean) => {
        if (settled) return;
        settled = true;
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          rows,
          bytes,
          complete,
          rssGrowth: rssMax - start.rss,
          heapGrowth: heapMax - start.heapUsed,
        });
      };
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        for (let k = chunk.indexOf(10); k >= 0; k = chunk.indexOf(10, k + 1)) rows++;
        if (++chunks % 256 === 0) {
          const m = memory();
          rssMax = Math.max(rssMax, m.rss);
          heapMax = Math.max(heapMax, m.heapUsed);
        }
        if (chunks === 1 && onFirstChunk) {
          res.pause();
          onFirstChunk().then(() => res.resume(), reject);
        }
      });
      res.on("end", () => finish(res.complete));
      res.on("aborted", () => finish(false));
      res.on("error", () => finish(false));
      res.on("close", () => finish(res.complete));
    });
    req.on("error", reject);
    req.end();
  });
}

for (const dialect of DIALECTS) {
  describe(`social-user-export (${dialect})`, () => {
    let t: TestApp;
    let chicago: number;
    let tokyo: number;
    let ann: number;
    let bob: number;
    let cy: number;
    before(async () => {
      t = await createTestApp(dialect);
      chicago = await createLocation(t, CHI, "Chicago, Loop");
      tokyo = await createLocation(t, TYO, "Tokyo");
      const a = t.accountId;
      ann = (
        await login(t, {
          accountId: a,
          locationId: chicago,
          timezone: CHI,
          at: "2026-03-01T03:30:00Z",
          identity: "ann@example.com",
          clientMac: "AA:BB:CC:00:00:0A",
          profile: { full_name: "Ann Example", email: "ann@example.com", phone_number: "+15550101" },
        })
      ).guestId;
      await login(t, {
        accountId: a,
        locationId: chicago,
        timezone: CHI,
        at: "2026-03-05T15:00:00Z",
        identity: "ann@example.com",
        campaignId: 2,
        clientMac: "AA:BB:CC:00:00:0B",
      });
      bob = (
        await login(t, { accountId: a, locationId: tokyo, timezone: TYO, at: "2026-03-02T18:00:00Z", identity: "1001", loginType: "FBUser", campaignId: 2, profile: { full_name: "Bob" } })
      ).guestId;
      await login(t, { accountId: a, locationId: chicago, timezone: CHI, at: "2026-03-02T18:00:00Z", identity: "1001", loginType: "FBUser" });
      cy = (await login(t, { accountId: a, locationId: tokyo, timezone: TYO, at: "2026-02-20T01:00:00Z", identity: "+15550100", loginType: "Twilio" })).guestId;
      await login(t, { accountId: a, locationId: tokyo, timezone: TYO, at: "2026-03-03T01:00:00Z", identity: "+15550100", loginType: "Twilio" });
      // RADIUS accounting: Ann used data at Chicago on two days of the range and one day after it.
      await t.db
        .insertInto("daily_usage")
        .values([
          { guest_id: ann, location_id: chicago, day: "2026-02-28", octets: 1000 },
          { guest_id: ann, location_id: chicago, day: "2026-03-05", octets: 5_000_000_000 },
          { guest_id: ann, location_id: chicago, day: "2026-03-20", octets: 7 },
        ])
        .execute();
    });
    after(async () => t.close());

    const csv = async (params: Record<string, unknown>, identifier?: string) => {
      const res = await t.call("GET", "social-user-export", { format: "csv", ...params }, { identifier });
      assert.equal(res.statusCode, 200, String(res.body));
      return { res, rows: records(String(res.body)) };
    };
    const ids = (rows: Record<string, string>[]) => rows.map((r) => `${r.location_id}:${r.social_user_id}`);

    it("answers a CSV attachment: header, one row per guest and location, by location then guest", async () => {
      const { res, rows } = await csv({ location_ids: `${tokyo},${chicago}`, from_date: "2026-02-28", to_date: "2026-03-05" });
      assert.equal(res.headers["content-type"], "text/csv; charset=utf-8");
      assert.equal(res.headers["content-disposition"], 'attachment; filename="guests-2026-02-28-to-2026-03-05.csv"');
      assert.ok(String(res.body).startsWith(`${HEADER}\r\n`));
      const first = chicago < tokyo ? chicago : tokyo;
      const expected = [
        ...[chicago, tokyo].sort((x, y) => x - y).flatMap((loc) => (loc === chicago ? [ann, bob] : [bob, cy]).sort((x, y) => x - y).map((g) => `${loc}:${g}`)),
      ];
      assert.deepEqual(ids(rows), expected);
      assert.equal(rows[0].location_id, String(first));
      const annRow = rows.find((r) => r.social_user_id === String(ann))!;
      assert.deepEqual(annRow, {
        social_user_id: String(ann),
        name: "Ann Example",
        email: "ann@example.com",
        phone: "'+15550101", // a leading + is neutralised like a formula
        mac: "AA:BB:CC:00:00:0B",
        location_id: String(chicago),
        location: "Chicago, Loop",
        login_type: "Cuser",
        login_type_name: "Custom",
        first_seen_utc: "2026-03-01 03:30:00",
        last_seen_utc: "2026-03-05 15:00:00",
        visits: "2",
        data_used_bytes: "5000001000",
        marketing_opt_in: "0",
        marketing_opt_in_utc: "",
        marketing_version: "",
      });
      const cyRow = rows.find((r) => r.social_user_id === String(cy))!;
      assert.equal(cyRow.first_seen_utc, "2026-02-20 01:00:00", "first seen is the first login there, before the range");
      assert.equal(cyRow.login_type, "Twilio");
      assert.equal(cyRow.login_type_name, "SMS");
      assert.equal(cyRow.visits, "1");
      assert.equal(cyRow.data_used_bytes, "0");
    });

    it("applies location_ids, the range (each location's own days), campaign_id and social_network", async () => {
      assert.deepEqual(ids((await csv({ location_ids: String(tokyo), from_date: "2026-02-01", to_date: "2026-03-31" })).rows), [bob, cy].sort((x, y) => x - y).map((g) => `${tokyo}:${g}`));
      // 03:30 UTC on March 1st is February 28th in Chicago.
      assert.deepEqual(ids((await csv({ location_ids: String(chicago), from_date: "2026-02-28", to_date: "2026-02-28" })).rows), [`${chicago}:${ann}`]);
      assert.deepEqual(ids((await csv({ location_ids: String(chicago), from_date: "2026-03-01", to_date: "2026-03-01" })).rows), []);
      assert.deepEqual(ids((await csv({ location_ids: `${chicago},${tokyo}`, from_date: "2026-02-01", to_date: "2026-03-31", campaign_id: 2 })).rows).sort(), [`${chicago}:${ann}`, `${tokyo}:${bob}`].sort());
      assert.deepEqual(ids((await csv({ location_ids: `${chicago},${tokyo}`, from_date: "2026-02-01", to_date: "2026-03-31", social_network: "Twilio" })).rows), [`${tokyo}:${cy}`]);
      // A range of a year is allowed (social-user-list stops at 90 days).
      assert.equal((await csv({ location_ids: String(tokyo), from_date: "2025-04-01", to_date: "2026-04-01" })).rows.length, 2);
    });

    it("refuses bad parameters in the API's error shape before any CSV: format, range, locations of another account", async () => {
      const other = await t.newAccount();
      const theirs = await createLocation(t, CHI, "Theirs", other.identifier);
      const base = { location_ids: String(chicago), from_date: "2026-03-01", to_date: "2026-03-05", format: "csv" };
      const cases: [Record<string, unknown>, Record<string, string[]>][] = [
        [{ ...base, format: "xlsx" }, { format: ["The format must be one of: csv."] }],
        [{ ...base, to_date: "2027-03-05" }, { to_date: [] }],
        [{ ...base, location_ids: `${chicago},${theirs}` }, { location_ids: ["The selected location_ids is invalid."] }],
      ];
      for (const [params, expected] of cases) {
        const res = await t.call("GET", "social-user-export", params);
        assert.equal(res.statusCode, 400, JSON.stringify(res.body));
        assert.match(String(res.headers["content-type"]), /application\/json/);
        assert.equal(res.body.status, "error");
        assert.deepEqual(Object.keys(res.body.message), Object.keys(expected));
        for (const [k, v] of Object.entries(expected)) if (v.length > 0) assert.deepEqual(res.body.message[k], v);
      }
      const missing = await t.call("GET", "social-user-export", { ...base, format: undefined });
      assert.equal(missing.statusCode, 400);
      assert.ok(missing.body.message.format, JSON.stringify(missing.body));
      const anonymous = await t.call("GET", "social-user-export", { ...base, format: "csv" }, { identifier: null });
      assert.notEqual(anonymous.statusCode, 200);
    });

    it("never shows another account's guests, even those who logged in at both accounts' venues", async () => {
      const other = await t.newAccount();
      const theirs = await createLocation(t, CHI, "Theirs", other.identifier);
      const theirGuest = (await login(t, { accountId: other.accountId, locationId: theirs, timezone: CHI, at: "2026-03-02T18:00:00Z", identity: "ann@example.com", profile: { full_name: "Their Ann" } })).guestId;
      const mine = await csv({ location_ids: `${chicago},${tokyo}`, from_date: "2026-02-01", to_date: "2026-03-31" });
      assert.ok(!mine.rows.some((r) => r.social_user_id === String(theirGuest) || r.name === "Their Ann"));
      const theirsCsv = await csv({ location_ids: String(theirs), from_date: "2026-02-01", to_date: "2026-03-31" }, other.identifier);
      assert.deepEqual(ids(theirsCsv.rows), [`${theirs}:${theirGuest}`]);
    });

    it("lets sub-users read it, read-only ones included", async () => {
      for (const readonly of [true, false]) {
        const sub = await makeSubUser(t, { readonly });
        const { rows } = await csv({ location_ids: String(tokyo), from_date: "2026-02-01", to_date: "2026-03-31" }, sub.identifier);
        assert.equal(rows.length, 2);
      }
    });

    it("neutralises formulas and quotes commas, quotes and line breaks (RFC 4180)", async () => {
      const loc = await createLocation(t, CHI, "=cmd|' /C calc'!A0");
      const names = ['=HYPERLINK("http://evil.example","click")', "+1+1", "-2+3", "@SUM(A1)", "\tTabbed", "\rReturn", "Smith, Jane", 'The "Boss"', "two\nlines", "plain"];
      const guests: number[] = [];
      for (const [k, name] of names.entries()) {
        guests.push((await login(t, { accountId: t.accountId, locationId: loc, timezone: CHI, at: "2026-03-02T18:00:00Z", identity: `inj${k}@example.com`, profile: { full_name: name } })).guestId);
      }
      // Logins trim names; a tab or CR first can still come from an import or an older version.
      for (const k of [4, 5]) await t.db.updateTable("guests").set({ full_name: names[k] }).where("id", "=", guests[k]).execute();
      const { res, rows } = await csv({ location_ids: String(loc), from_date: "2026-03-01", to_date: "2026-03-03" });
      const byGuest = new Map(rows.map((r) => [Number(r.social_user_id), r]));
      assert.deepEqual(
        guests.map((g) => byGuest.get(g)!.name),
        ["'=HYPERLINK(\"http://evil.example\",\"click\")", "'+1+1", "'-2+3", "'@SUM(A1)", "'\tTabbed", "'\rReturn", "Smith, Jane", 'The "Boss"', "two\nlines", "plain"],
      );
      assert.ok(rows.every((r) => r.location === "'=cmd|' /C calc'!A0"));
      const body = String(res.body);
      assert.ok(body.includes('"Smith, Jane"') && body.includes('"The ""Boss"""') && body.includes('"two\nlines"'));
    });

    it("aborts the response when the database fails mid-stream, instead of ending a truncated file", async () => {
      const f = await createTestApp(dialect);
      try {
        const loc = await createLocation(f, CHI, "Big");
        // More rows than loopback's socket buffers hold (about 10 MB), so the server is still
        // reading pages when the table goes: 200,000 rows are about 20 MB of CSV.
        await seedGuests(f, dialect, f.accountId, loc, MID_STREAM_ROWS, "mid");
        await f.app.listen({ host: "127.0.0.1", port: 0 });
        const port = (f.app.server.address() as AddressInfo).port;
        const path = `/api/social-user-export?identifier=${f.identifier}&location_ids=${loc}&from_date=2026-03-01&to_date=2026-03-31&format=csv`;
        const whole = await download(port, path);
        assert.equal(whole.status, 200);
        assert.equal(whole.complete, true);
        assert.equal(whole.rows, MID_STREAM_ROWS + 1);
        // The first chunk has arrived; now the table a later page reads is gone.
        const cut = await download(port, path, async () => {
          await sql`drop table daily_usage`.execute(f.db);
        });
        assert.equal(cut.status, 200);
        assert.equal(cut.complete, false, "the response must not end like a complete file");
        assert.ok(cut.rows < MID_STREAM_ROWS + 1, String(cut.rows));
      } finally {
        await f.close();
      }
    });

    // A million on SQLite (about 10 s); PostgreSQL takes 30 s to seed them, so 200,000 unless EXPORT_MILLION_POSTGRES=1.
    const count = dialect === "sqlite" || process.env.EXPORT_MILLION_POSTGRES === "1" ? 1_000_000 : 200_000;
    it(`streams ${count.toLocaleString("en")} rows in bounded memory`, { timeout: 300_000 }, async () => {
      const m = await createTestApp(dialect);
      try {
        const loc = await createLocation(m, CHI, "Stadium");
        const seeded = Date.now();
        await seedGuests(m, dialect, m.accountId, loc, count, "m");
        // Printed at once: a run that passes its timeout shows whether the seed or the download took it.
        console.log(`# ${dialect}: seeded ${count} guests in ${Date.now() - seeded} ms`);
        await m.app.listen({ host: "127.0.0.1", port: 0 });
        const port = (m.app.server.address() as AddressInfo).port;
        const started = Date.now();
        const d = await download(port, `/api/social-user-export?identifier=${m.identifier}&location_ids=${loc}&from_date=2026-03-01&to_date=2026-03-31&format=csv`);
        const ms = Date.now() - started;
        assert.equal(d.status, 200);
        assert.equal(d.complete, true);
        assert.equal(d.rows, count + 1);
        const MB = 1024 * 1024;
        console.log(
          `# ${dialect}: exported ${(d.bytes / MB).toFixed(0)} MB in ${ms} ms ` +
            `(${Math.round(count / (ms / 1000))} rows/s); growth: RSS ${(d.rssGrowth / MB).toFixed(1)} MB, heap ${(d.heapGrowth / MB).toFixed(1)} MB`,
        );
        assert.ok(d.rssGrowth < 64 * MB, `RSS grew by ${(d.rssGrowth / MB).toFixed(1)} MB`);
        assert.ok(d.heapGrowth < 64 * MB, `heap grew by ${(d.heapGrowth / MB).toFixed(1)} MB`);
      } finally {
        await m.close();
      }
    });
  });
}
