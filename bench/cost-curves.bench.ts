/**
 * Issue 23, cost curves: the statements every RADIUS packet, RFC 8908 poll, portal login and API
 * read runs, on PostgreSQL databases of growing size (guests; ten sessions and ten logins of
 * history per guest, 5 % of the sessions still open; access points at 100 locations), each with
 * EXPLAIN ANALYZE: its execution time and the scans it chose. A request path whose cost grows with
 * history shows as a growing time or a Seq Scan. Everything is built set-based (generate_series,
 * one statement per table) on a connection without a statement timeout.
 *
 * BENCH_COST_SIZES: the databases, as guests:access-points pairs (default
 * 10000:100,10000:10000,100000:10000). 1,000,000 guests (10 million sessions and 10 million logins)
 * is `BENCH_COST_SIZES=1000000:10000`: its build takes about ten times the 100,000 one (printed).
 * BENCH_COST_HISTORY: sessions and logins per guest (default 10).
 */
import { sql } from "kysely";
import { type DB, createDatabase } from "../src/db/database.js";
import { migrateToLatest } from "../src/db/migrator.js";

const PG = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const SIZES = (process.env.BENCH_COST_SIZES ?? "10000:100,10000:10000,100000:10000").split(",").map((pair) => {
  const [guests, aps] = pair.split(":").map(Number);
  if (!(guests > 0) || !(aps >= 100)) throw new Error(`BENCH_COST_SIZES: "${pair}" is not guests:access-points (at least 100 access points, one a location)`);
  return { guests, aps };
});
const HISTORY = Number(process.env.BENCH_COST_HISTORY ?? 10);

const QUERIES: [string, string][] = [
  ["accounting: find session", "select * from radius_sessions where device_id = 77 and acct_session_id = 's12345'"],
  ["accounting: guest by MAC", "select guest_id from guest_macs where account_id = 1 and client_mac = 'm4242'"],
  [
    "accounting: usage upsert",
    "insert into daily_usage (guest_id, location_id, day, octets) values (42, 7, '2026-01-05', 10) on conflict (guest_id, location_id, day) do update set octets = daily_usage.octets + 10 returning octets",
  ],
  [
    "MAC auth: returning guest, usage",
    "select gm.guest_id, gm.last_login_at, du.octets from guest_macs gm left join daily_usage du on du.guest_id = gm.guest_id and du.location_id = 7 and du.day = '2026-01-05' inner join guests g on g.id = gm.guest_id where gm.account_id = 1 and gm.client_mac = 'm4242' and g.social_network <> 'Vuser'",
  ],
  ["portal login: insert the login", "insert into logins (account_id, guest_id, location_id, login_type, logged_at, local_day) values (1, 4242, 7, 'Muser', '2026-01-05 10:00:00', '2026-01-05') returning id"],
  ["API guest-list: login stats, 100 guests", "select guest_id, count(*), max(id) from logins where guest_id between 4200 and 4299 group by guest_id"],
  ["analytics: logins of a location, one day", "select count(*) from logins where location_id = 7 and local_day = '2026-01-05'"],
  ["NAS: device by MAC", "select * from devices where mac_address = '02:AB:00:00:00:4d'"],
  ["RFC 8908: open session by address", "select guest_id, started_at from radius_sessions where location_id = 7 and framed_ip = '10.0.1.2' and stopped_at is null order by id desc limit 1"],
  [
    "API session-list, 10 locations",
    "select s.id from radius_sessions s join devices d on d.id = s.device_id where s.location_id in (1,2,3,4,5,6,7,8,9,10) and s.stopped_at is null and s.updated_at >= '2025-12-31 00:00:00' and s.id > 0 order by s.id limit 100",
  ],
];

async function build(db: DB, n: number, aps: number): Promise<void> {
  await sql`insert into accounts (email, created_at) values ('a@x', '2026-01-01 00:00:00')`.execute(db);
  await sql`insert into locations (account_id,name,address1,town,state,zipcode,country,phone_number,timezone,portal_slug,date_created,last_modified,deleted)
    select 1, 'L'||g, 'a','t','s','z','US','1','UTC','slug'||g,'2026-01-01 00:00:00','2026-01-01 00:00:00',0 from generate_series(1,100) g`.execute(db);
  await sql`insert into devices (account_id,location_id,model_id,name,mac_address,radius_secret,create_date,update_date)
    select 1, 1+(g%100), 'coovachilli','AP', '02:AB:00:'||lpad(to_hex(g/65536),2,'0')||':'||lpad(to_hex((g/256)%256),2,'0')||':'||lpad(to_hex(g%256),2,'0'), 's','2026-01-01 00:00:00','2026-01-01 00:00:00'
    from generate_series(1,${aps}) g`.execute(db);
  await sql`insert into guests (account_id, social_network, network_user_id, created_at, updated_at) select 1,'Muser','g'||g,'2026-01-01 00:00:00','2026-01-01 00:00:00' from generate_series(1,${n}) g`.execute(db);
  await sql`insert into guest_macs (account_id, client_mac, guest_id, last_login_at) select 1, 'm'||g, g, '2026-01-01 00:00:00' from generate_series(1,${n}) g`.execute(db);
  await sql`insert into radius_sessions (device_id,guest_id,location_id,acct_session_id,username,client_mac,started_at,updated_at,stopped_at,session_time,input_octets,output_octets,framed_ip)
    select 1+(g%${aps}), 1+(g%${n}), 1+((g%${aps})%100), 's'||g, 'u', 'm', '2026-01-01 00:00:00','2026-01-01 00:00:00',
      case when g > ${Math.round(n * HISTORY * 0.95)} then null else '2026-01-01 01:00:00' end, 0,0,0, '10.0.'||(g%256)||'.'||(g/256%256)
    from generate_series(1,${n * HISTORY}) g`.execute(db);
  await sql`insert into logins (account_id, guest_id, location_id, login_type, logged_at, local_day)
    select 1, 1+(g%${n}), 1+(g%100), 'Muser', '2026-01-01 00:00:00', '2026-01-'||lpad((1+g%28)::text,2,'0') from generate_series(1,${n * HISTORY}) g`.execute(db);
  await sql`insert into daily_usage (guest_id, location_id, day, octets) select 1+(g%${n}), 1+(g%100), '2026-01-'||lpad((1+g%28)::text,2,'0'), 1 from generate_series(1,${n * HISTORY}) g on conflict do nothing`.execute(db);
  await sql`analyze`.execute(db);
}

export default async function run(): Promise<void> {
  const table = new Map<string, string[]>();
  for (const { guests: n, aps } of SIZES) {
    const schema = `bench_cost_${Date.now()}`;
    const admin = createDatabase(PG, { poolSize: 1 });
    await sql`create schema ${sql.id(schema)}`.execute(admin);
    const db = createDatabase(PG, { searchPath: schema, poolSize: 2, timeouts: { statementMs: 1_800_000 } });
    try {
      await migrateToLatest(db);
      const t0 = Date.now();
      await build(db, n, aps);
      console.log(
        `${n.toLocaleString("en")} guests, ${(n * HISTORY).toLocaleString("en")} sessions, ${(n * HISTORY).toLocaleString("en")} logins, ${aps.toLocaleString("en")} access points: built in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
      );
      for (const [name, text] of QUERIES) {
        // Warm, then measured: the median of 5 runs.
        const times: number[] = [];
        let scans = "";
        for (let i = 0; i < 6; i++) {
          const r = await sql.raw(`explain (analyze, costs off, timing off, summary on) ${text}`).execute(db);
          const lines = (r.rows as { "QUERY PLAN": string }[]).map((x) => x["QUERY PLAN"]);
          scans = lines.filter((l) => /Scan/.test(l)).map((l) => l.trim().replace(/^->\s*/, "").replace(/\s+\(actual.*$/, "")).join("; ");
          if (i > 0) times.push(Number(/Execution Time: ([\d.]+)/.exec(lines.join("\n"))?.[1]));
        }
        times.sort((a, b) => a - b);
        const row = table.get(name) ?? [];
        row.push(`${times[2].toFixed(3)} ms`);
        table.set(name, row);
        if (n === SIZES[0].guests && aps === SIZES[0].aps) console.log(`  ${name}: ${scans}`);
      }
    } finally {
      await db.destroy();
      await sql`drop schema ${sql.id(schema)} cascade`.execute(admin);
      await admin.destroy();
    }
  }
  const short = (x: number) => (x >= 1_000_000 ? `${x / 1_000_000}M` : x >= 1000 ? `${x / 1000}k` : String(x));
  const heads = SIZES.map(({ guests, aps }) => `${short(guests)} g/${short(guests * HISTORY)} h/${short(aps)} AP`);
  console.log(`\nguests (g), sessions and logins of history (h), access points (AP)`);
  console.log(`${"statement (execution time in PostgreSQL, median of 5)".padEnd(44)} ${heads.map((h) => h.padStart(22)).join("")}`);
  for (const [name, row] of table) console.log(`${name.padEnd(44)} ${row.map((c) => c.padStart(22)).join("")}`);
}
