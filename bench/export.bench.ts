/**
 * Issue 10 benchmark: social-user-export of a location with 1,000,000 guests (one login each in the
 * range), downloaded over real HTTP on loopback, on SQLite and on PostgreSQL: CSV rows per second.
 * Baseline, measured in the same run on the same database: the same pages read by the same keyset
 * query (the repository's exportPage) with nothing else, no CSV formatting and no HTTP. The ratio
 * says what the CSV and the stream cost over reading the rows. The data is dropped afterwards.
 */
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { type DB, createDatabase } from "../src/db/database.js";
import { migrateToLatest } from "../src/db/migrator.js";
import { createAccount } from "../src/modules/accounts/accounts.service.js";
import { EXPORT_PAGE_ROWS } from "../src/modules/guests/guest-export.service.js";

const PG_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const AT = "2026-03-10 12:00:00";

interface Fresh {
  db: DB;
  drop(): Promise<void>;
}

async function freshDatabase(dialect: "sqlite" | "postgres"): Promise<Fresh> {
  const tag = randomBytes(5).toString("hex");
  if (dialect === "sqlite") {
    const file = join(tmpdir(), `guestwifi-bench-export-${tag}.db`);
    const db = createDatabase(`sqlite:${file}`);
    return {
      db,
      async drop() {
        await db.destroy();
        for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
      },
    };
  }
  const schema = `bench_export_${tag}`;
  const admin = createDatabase(PG_URL, { poolSize: 1 });
  await sql`create schema ${sql.id(schema)}`.execute(admin);
  const db = createDatabase(PG_URL, { searchPath: schema, poolSize: 5 });
  return {
    db,
    async drop() {
      await db.destroy();
      await sql`drop schema ${sql.id(schema)} cascade`.execute(admin);
      await admin.destroy();
    },
  };
}

/** ROWS guests at one location, one login each on 2026-03-10, by bulk SQL. */
async function seed(db: DB, dialect: "sqlite" | "postgres", accountId: number, locationId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (dialect === "postgres") await sql`set local statement_timeout = 0`.execute(trx);
    const cols = sql`(account_id, social_network, network_user_id, email, full_name, phone_number, created_at, updated_at)`;
    const values = sql`${accountId}, 'Cuser', 'b' || i, 'guest' || i || '@example.com', 'Guest ' || i, '+1555' || i, ${AT}, ${AT}`;
    if (dialect === "sqlite") {
      await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${ROWS}) insert into guests ${cols} select ${values} from n`.execute(trx);
    } else {
      await sql`insert into guests ${cols} select ${values} from generate_series(1, ${ROWS}::int) i`.execute(trx);
    }
    await sql`insert into guest_locations (guest_id, location_id, campaign_id, first_login_at)
      select id, ${locationId}, 1, ${AT} from guests where account_id = ${accountId}`.execute(trx);
    await sql`insert into logins (account_id, guest_id, location_id, campaign_id, login_type, client_mac, logged_at, local_day)
      select ${accountId}, id, ${locationId}, 1, 'Cuser', 'AA:BB:CC:00:00:01', ${AT}, '2026-03-10' from guests where account_id = ${accountId}`.execute(trx);
    if (dialect === "postgres") await sql`analyze guests, guest_locations, logins`.execute(trx);
  });
}

function download(port: number, path: string): Promise<{ rows: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    let rows = 0;
    let bytes = 0;
    request({ host: "127.0.0.1", port, path }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode}`));
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        for (let k = chunk.indexOf(10); k >= 0; k = chunk.indexOf(10, k + 1)) rows++;
      });
      res.on("end", () => (res.complete ? resolve({ rows: rows - 1, bytes }) : reject(new Error("aborted"))));
      res.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

async function benchDialect(dialect: "sqlite" | "postgres"): Promise<void> {
  const fresh = await freshDatabase(dialect);
  try {
    await migrateToLatest(fresh.db);
    const config = loadConfig({ LOG_LEVEL: "silent", RADIUS_ENABLED: "false" });
    const app = await buildApp({ config, db: fresh.db, logger: false });
    const deps = app.deps;
    const { accountId, identifier } = await createAccount(deps, "bench@example.com");
    const created = await app.inject({
      method: "POST",
      url: "/api/create-or-update-location",
      headers: { identifier },
      payload: { location_name: "Stadium", address1: "1 Main St", town: "Springfield", state: "IL", zipcode: "62701", country: "US", phone_number: "(217)555-0100", timezone: "America/Chicago" },
    });
    const locationId = created.json().location_id as number;
    let t = performance.now();
    await seed(fresh.db, dialect, accountId, locationId);
    console.log(`${dialect}: seeded ${ROWS.toLocaleString("en")} guests in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    await app.listen({ host: "127.0.0.1", port: 0 });
    const port = (app.server.address() as AddressInfo).port;
    const path = `/api/social-user-export?identifier=${identifier}&location_ids=${locationId}&from_date=2026-03-01&to_date=2026-03-31&format=csv`;

    for (let round = 1; round <= 2; round++) {
      t = performance.now();
      let read = 0;
      for (let after = 0; ; ) {
        const page = await deps.repos.guests.exportPage(deps.db, { accountId, locationId, fromDay: "2026-03-01", toDay: "2026-03-31", afterGuestId: after, limit: EXPORT_PAGE_ROWS });
        read += page.length;
        if (page.length < EXPORT_PAGE_ROWS) break;
        after = page[page.length - 1].guest_id;
      }
      const baseS = (performance.now() - t) / 1000;
      t = performance.now();
      const got = await download(port, path);
      const csvS = (performance.now() - t) / 1000;
      if (got.rows !== ROWS || read !== ROWS) throw new Error(`expected ${ROWS} rows, got ${got.rows} by HTTP and ${read} by the query`);
      const csvRate = ROWS / csvS;
      const baseRate = ROWS / baseS;
      console.log(
        `${dialect} round ${round}: CSV over HTTP ${Math.round(csvRate).toLocaleString("en")} rows/s (${(got.bytes / 2 ** 20).toFixed(0)} MB in ${csvS.toFixed(1)} s); ` +
          `baseline (same paging query, no CSV, no HTTP) ${Math.round(baseRate).toLocaleString("en")} rows/s; ratio ${(csvRate / baseRate).toFixed(2)}`,
      );
    }
    await app.close();
  } finally {
    await fresh.drop();
  }
}

export default async function run(): Promise<void> {
  for (const dialect of ["sqlite", "postgres"] as const) await benchDialect(dialect);
}
