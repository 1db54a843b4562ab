/**
 * recordLogin on PostgreSQL with and without a webhook on the account: logins per second at 16
 * concurrent callers, the same locations and guests. Without a webhook the one-statement login is
 * unchanged (the cached flag skips the outbox CTE); with one it adds the CTE and an outbox row.
 */
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { createDatabase } from "../src/db/database.js";
import { migrateToLatest } from "../src/db/migrator.js";
import { createAccount } from "../src/modules/accounts/accounts.service.js";
import { createRepositories } from "../src/modules/context.js";
import { recordLogin } from "../src/modules/guests/guest-activity.service.js";

const PG = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const N = Number(process.env.BENCH_LOGINS ?? 3000);
const CONCURRENCY = 16;

export default async function main(): Promise<void> {
  const schema = `bench_${randomBytes(4).toString("hex")}`;
  const admin = createDatabase(PG, { poolSize: 1 });
  await sql`create schema ${sql.id(schema)}`.execute(admin);
  const db = createDatabase(PG, { searchPath: schema, poolSize: CONCURRENCY });
  try {
    await migrateToLatest(db);
    const ctx = { db, repos: createRepositories() };
    const run = async (label: string) => {
      const { accountId } = await createAccount(ctx, `${label}-${Date.now()}@bench.example`);
      const loc = await db
        .insertInto("locations")
        .values({
          account_id: accountId, name: "Bench", address1: "1", town: "T", state: "S", zipcode: "0", country: "US", phone_number: "1",
          timezone: "UTC", latitude: null, longitude: null, website: null, portal_slug: `bench-${label}-${Date.now()}`, default_campaign_id: null,
          date_created: "2026-01-01 00:00:00", last_modified: "2026-01-01 00:00:00", deleted: 0,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      if (label === "webhook") {
        await db
          .insertInto("webhooks")
          .values({ account_id: accountId, url: "https://93.184.215.14/h", events: ",guest.login,", location_ids: "", secret: "whsec_x", date_created: "2026-01-01 00:00:00", last_modified: "2026-01-01 00:00:00" })
          .execute();
      }
      let next = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < N) {
            const i = next++;
            await recordLogin(db, {
              accountId, locationId: loc.id, timezone: "UTC", campaignId: 1, deviceId: null, loginType: "Cuser",
              identity: `g${i % 500}@bench.example`, profile: { email: `g${i % 500}@bench.example` }, clientMac: "", userAgent: "bench",
            });
          }
        }),
      );
      const s = (performance.now() - t0) / 1000;
      const queued = await db.selectFrom("webhook_deliveries").select((eb) => eb.fn.countAll<number>().as("n")).where("account_id", "=", accountId).executeTakeFirstOrThrow();
      console.log(`${label}: ${N} logins in ${s.toFixed(2)} s = ${Math.round(N / s)} logins/s; outbox rows ${queued.n}`);
    };
    await run("warmup");
    await run("none");
    await run("webhook");
    await run("none");
    await run("webhook");
  } finally {
    await db.destroy();
    await sql`drop schema ${sql.id(schema)} cascade`.execute(admin);
    await admin.destroy();
  }
}
