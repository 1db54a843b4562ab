/**
 * Recording what guests do: a login through the portal, a visit (a guest connected on a day),
 * both keeping the daily aggregates that analytics read. The portal, RADIUS and the demo data
 * generator all record through here, never around it: this file is the only writer of a login's
 * tables (guests, logins, guest_locations, guest_macs and the login counters).
 */
import { type Kysely, sql } from "kysely";
import type { DB } from "../../db/database.js";
import { counterShard, dialectOf, increment } from "../../db/dialect.js";
import { outboxWritten } from "../../db/outbox.js";
import { NAMED_STATEMENT } from "../../db/postgres-pool.js";
import { PreparedQuery } from "../../db/prepared-query.js";
import { type SubmitWrite, createBatchedWriter } from "../../db/batched-writer.js";
import { inTransaction } from "../../db/transaction.js";
import { enqueueAutomations, mayHaveAutomations } from "../outbox/outbox-triggers.js";
import { EVENT_CTE_KEYS, enqueueEvent, enqueueEventCte, eventCteValues, mayHaveWebhooks } from "../webhooks/webhook-events.js";
import { localDay } from "./local-day.js";
import { COUNTER_KEYS, COUNTER_TYPES, type CounterKey, FIRST_HERE, GUEST_KEY, LOGIN_COLUMNS, LOGIN_COUNTERS, LOGIN_TYPES, type LoginInput, type LoginPlan, type PgType, planLogin } from "./login-input.js";

export type { GuestProfileInput, LoginCompanion, LoginConsent, LoginInput } from "./login-input.js";

/** What recording a login gives back: the guest's id and the new login's. */
type LoginIds = { guestId: number; loginId: number };

/**
 * Records a login and everything that follows from it, atomically, in one plan (planLogin) for
 * both databases. PostgreSQL writes it as one statement (one round trip; the counter rows are
 * locked only for the end of one statement), unless the account has a welcome automation (it is
 * queued in SQL that needs to know whether the guest is new here); SQLite, and that case, in one
 * transaction of single statements (on SQLite shared with the logins that arrive with it), or in
 * the caller's.
 */
export async function recordLogin(db: DB, input: LoginInput): Promise<LoginIds> {
  const plan = planLogin(input);
  if (dialectOf(db) === "postgres" && !(await mayHaveAutomations(db, input.accountId, "welcome"))) {
    const webhooks = await mayHaveWebhooks(db, input.accountId);
    const ids = await writeInOneStatement(db, plan, input, webhooks);
    if (webhooks) outboxWritten(db, "webhook_deliveries");
    return ids;
  }
  if (dialectOf(db) === "sqlite" && !db.isTransaction) return sqliteLogins(db)({ plan, input });
  return inTransaction(db, (trx) => writeInSteps(db, trx, plan, input));
}

type LoginJob = { plan: LoginPlan; input: LoginInput };

/**
 * SQLite: the logins that arrive together (in one poll round of the event loop, or while a batch is
 * written) are written in one transaction, one after the other (the group commit accounting uses,
 * src/db/batched-writer.ts). Each login's commit wrote its pages to the write-ahead log again (the
 * day's counter rows, the ends of the guests' and logins' indexes, the outbox): in a batch they are
 * written once. Measured on portal logins: 3,807 to 3,903 per second at 270 to 276 us of CPU each,
 * against 1,911 to 1,943 at 521 to 543 us one transaction each. A login still resolves only once it
 * is committed; a batch that fails is written again login by login, so only a faulty one fails.
 */
const loginWriters = new WeakMap<DB, SubmitWrite<LoginJob, LoginIds>>();
/**
 * A login takes about 0.3 ms to write: a batch of 16 holds the event loop (RADIUS, the API) for
 * about 5 ms at most, and each of its logins waits for all of it. The first few logins of a batch
 * already share most pages.
 */
const LOGINS_PER_BATCH = 16;

function sqliteLogins(db: DB): SubmitWrite<LoginJob, LoginIds> {
  let submit = loginWriters.get(db);
  if (!submit) {
    submit = createBatchedWriter(
      db,
      (jobs: LoginJob[]) =>
        inTransaction(db, async (trx) => {
          const ids: LoginIds[] = [];
          for (const { plan, input } of jobs) ids.push(await writeInSteps(db, trx, plan, input));
          return ids;
        }),
      undefined,
      LOGINS_PER_BATCH,
    );
    loginWriters.set(db, submit);
  }
  return submit;
}

/** The loosely typed handle for the counters, whose table is named at run time. */
const loose = (db: DB) => db as unknown as Kysely<any>;

async function writeInSteps(root: DB, trx: DB, plan: LoginPlan, input: LoginInput): Promise<LoginIds> {
  const guestValues = { ...plan.guestKey, ...plan.guestSet, created_at: plan.now };
  const guest = await guestUpsertFor(Object.keys(plan.guestSet)).writeReturning<{ id: number }>(trx, guestValues);
  if (!guest) throw new Error("the guest's upsert returned no row");
  const login = await loginInsert.insert(trx, { ...plan.login, guest_id: guest.id });
  const firstHere = await guestLocationInsert.run(trx, { ...plan.firstHere, guest_id: guest.id });
  if (plan.mac) await guestMacUpsert.run(trx, { account_id: plan.guestKey.account_id, client_mac: plan.mac, guest_id: guest.id, last_login_at: plan.now });
  const gates = {
    always: true,
    "first-here": firstHere > 0,
    "first-visit-today": await firstVisitToday(trx, plan.firstHere.location_id, plan.login.local_day, guest.id),
  };
  for (const c of LOGIN_COUNTERS) if (gates[c.when]) await addOne(trx, c, plan.counterKeys);
  if (gates["first-here"]) {
    await enqueueAutomations(root, trx, "welcome", { accountId: input.accountId, guestId: guest.id, locationId: input.locationId, at: plan.now, key: `l${input.locationId}` });
  }
  await input.companion?.write(trx, guest.id);
  await enqueueEvent(trx, input.accountId, "guest.login", { guest_id: guest.id, login_id: login.id, ...plan.event }, input.locationId, plan.at);
  return { guestId: guest.id, loginId: login.id };
}

/**
 * Prepared statements by shape (the columns a login sets, and on PostgreSQL its companion and
 * webhooks): the shapes real logins take are few (the profile fields a login method gives).
 */
const MAX_LOGIN_SHAPES = 256;
function byShape(cache: Map<string, PreparedQuery<string>>, shape: string, make: () => PreparedQuery<string>): PreparedQuery<string> {
  let statement = cache.get(shape);
  if (!statement) {
    statement = make();
    if (cache.size >= MAX_LOGIN_SHAPES) cache.clear();
    cache.set(shape, statement);
  }
  return statement;
}

/**
 * The SQLite login's own inserts, built once per database (prepared-query.ts) instead of by Kysely
 * at every login: the login row without RETURNING (SQLite copies a returned row to a temporary table
 * first; its id is the insert's rowid), the guest's first login at the location, its MAC.
 */
const loginInsert = new PreparedQuery([...LOGIN_COLUMNS, "guest_id"], (db, p) => db.insertInto("logins").values(p));
const guestLocationInsert = new PreparedQuery(["guest_id", ...FIRST_HERE], (db, p) =>
  db.insertInto("guest_locations").values(p).onConflict((oc) => oc.columns(["guest_id", "location_id"]).doNothing()),
);
const guestMacUpsert = new PreparedQuery(["account_id", "client_mac", "guest_id", "last_login_at"], (db, p) =>
  db
    .insertInto("guest_macs")
    .values(p)
    .onConflict((oc) => oc.columns(["account_id", "client_mac"]).doUpdateSet({ guest_id: p.guest_id, last_login_at: p.last_login_at })),
);

/** SQLite: the guest's upsert, prepared once per set of columns a login sets. */
const guestUpserts = new Map<string, PreparedQuery<string>>();
function guestUpsertFor(setKeys: string[]): PreparedQuery<string> {
  return byShape(guestUpserts, setKeys.join(","), () => {
    const keys = [...GUEST_KEY, "created_at", ...setKeys];
    return new PreparedQuery<string>(keys, (db, p) =>
      loose(db)
        .insertInto("guests")
        .values(Object.fromEntries(keys.map((k) => [k, p[k]])))
        .onConflict((oc) => oc.columns([...GUEST_KEY]).doUpdateSet(Object.fromEntries(setKeys.map((k) => [k, p[k]]))))
        .returning("id"),
    );
  });
}

/**
 * Each counter's upsert and the visitor row's insert, built once per database (prepared-query.ts): a
 * SQLite login ran up to five of them, each built and compiled anew by Kysely on every call.
 */
const counterUpserts = new Map(
  LOGIN_COUNTERS.map((c) => [
    c.table,
    new PreparedQuery<CounterKey>(c.keys, (db, p) =>
      loose(db)
        .insertInto(c.table)
        .values({ ...Object.fromEntries(c.keys.map((k) => [k, p[k]])), shard: counterShard(db), count: 1 })
        .onConflict((oc) => oc.columns([...c.keys, "shard"]).doUpdateSet({ count: increment(`${c.table}.count`) })),
    ),
  ]),
);
const visitorInsert = new PreparedQuery(["locationId", "day", "guestId"], (db, p) =>
  db
    .insertInto("daily_visitors")
    .values({ location_id: p.locationId, day: p.day, guest_id: p.guestId })
    .onConflict((oc) => oc.columns(["location_id", "day", "guest_id"]).doNothing()),
);

/** Adds one to a counter's row of these keys (in this connection's shard). */
async function addOne(db: DB, c: (typeof LOGIN_COUNTERS)[number], keys: LoginPlan["counterKeys"]): Promise<void> {
  await counterUpserts.get(c.table)!.run(db, keys);
}

/** Notes the guest as a visitor of the location on that local day: true the first time that day. */
async function firstVisitToday(db: DB, locationId: number, day: string, guestId: number): Promise<boolean> {
  return (await visitorInsert.run(db, { locationId, day, guestId })) > 0;
}

/** The counter of a location's visitors per local day (one of LOGIN_COUNTERS). */
const DAILY_VISITS = LOGIN_COUNTERS.find((c) => c.table === "daily_visits")!;

/** Counts the guest as a visitor of the location on that local day, once per day. Returns true the first time. */
export async function countVisit(db: DB, locationId: number, day: string, guestId: number): Promise<boolean> {
  if (!(await firstVisitToday(db, locationId, day, guestId))) return false;
  await addOne(db, DAILY_VISITS, { location_id: locationId, day, login_type: "", hour: 0 });
  return true;
}

/** A guest seen at a location on its local day. */
export interface Visit {
  locationId: number;
  day: string;
  guestId: number;
}

/**
 * countVisit for many visits at once (the returning guests RADIUS let in during one burst): for
 * each, whether it was the guest's first that day there. PostgreSQL counts them in one statement,
 * atomic by itself; SQLite runs countVisit for each in one transaction (or the caller's).
 */
export async function countVisits(db: DB, visits: readonly Visit[]): Promise<boolean[]> {
  if (visits.length === 0) return [];
  if (dialectOf(db) !== "postgres") {
    return inTransaction(db, async (trx) => {
      const first: boolean[] = [];
      for (const v of visits) first.push(await countVisit(trx, v.locationId, v.day, v.guestId));
      return first;
    });
  }
  const rows = await visitsStatement.all<{ n: number | string }>(db, {
    locationIds: visits.map((v) => v.locationId),
    days: visits.map((v) => v.day),
    guestIds: visits.map((v) => v.guestId),
  });
  const first = new Array<boolean>(visits.length).fill(false);
  for (const { n } of rows) first[Number(n) - 1] = true;
  return first;
}

/**
 * PostgreSQL: countVisit's two writes for a list of visits, in one statement. Rows are written in
 * key order, so two bursts sharing a counter row (a location's day, in colliding shards) or a
 * visitor lock them in the same order and never deadlock. A visit listed twice counts once, as
 * its first listing.
 */
const visitsStatement = new PreparedQuery(["locationIds", "days", "guestIds"], (db, p) => ({
  compile: () => visitsStatementSql(db, p).compile(db),
}));

function visitsStatementSql(db: DB, p: Record<"locationIds" | "days" | "guestIds", never>) {
  return sql`${sql.raw(NAMED_STATEMENT)}
    with j as (
      select * from unnest(${p.locationIds}::integer[], ${p.days}::varchar[], ${p.guestIds}::integer[]) with ordinality as j(location_id, day, guest_id, n)
    ), ${visitCountingCtes(db, "j")}
    select min(j.n) as n from j join dv using (location_id, day, guest_id) group by j.location_id, j.day, j.guest_id`;
}

/**
 * PostgreSQL: countVisit's two writes, as the common table expressions `dv` (the visits that were
 * new, returning location_id, day and guest_id) and `c` (their counters), for the visits in
 * `source`, a relation of (location_id, day, guest_id) defined before them. Another statement that
 * reads the rows its visits come from (RADIUS recalling open sessions) counts them in its own round
 * trip this way, by the same rules.
 */
export function visitCountingCtes(db: DB, source: string) {
  return sql`dv as (
      insert into daily_visitors (location_id, day, guest_id)
      select distinct location_id, day, guest_id from ${sql.id(source)} order by location_id, day, guest_id
      on conflict (location_id, day, guest_id) do nothing
      returning location_id, day, guest_id
    ), c as (
      insert into ${sql.id(DAILY_VISITS.table)} (location_id, day, shard, count)
      select location_id, day, ${counterShard(db)}, count(*) from dv group by location_id, day order by location_id, day
      on conflict (location_id, day, shard) do update set count = ${sql.ref(`${DAILY_VISITS.table}.count`)} + excluded.count
    )`;
}

/** A visit without a login (a returning guest let in by RADIUS): counted on the location's local day. */
export async function recordVisit(
  db: DB,
  input: { locationId: number; timezone: string; guestId: number; at?: Date },
): Promise<boolean> {
  const day = localDay(input.at ?? new Date(), input.timezone);
  return inTransaction(db, (trx) => countVisit(trx, input.locationId, day, input.guestId));
}

/**
 * Data a guest used at a location, counted on the local day of `at` (what RADIUS accounting adds up
 * from a gateway's octet counters; the demo generator writes it directly).
 */
export async function recordUsage(
  db: DB,
  input: { guestId: number; locationId: number; timezone: string; octets: number; at?: Date },
): Promise<void> {
  const day = localDay(input.at ?? new Date(), input.timezone);
  await db
    .insertInto("daily_usage")
    .values({ guest_id: input.guestId, location_id: input.locationId, day, octets: input.octets })
    .onConflict((oc) => oc.columns(["guest_id", "location_id", "day"]).doUpdateSet({ octets: increment("daily_usage.octets", input.octets) }))
    .execute();
}

// PostgreSQL: the same plan as one statement of data-modifying CTEs, atomic by itself (or part of
// the caller's transaction). Its text depends only on the plan's shape (which guest columns it
// sets, the companion, webhooks): it is built and compiled once per shape and each login binds its
// values; building it with Kysely on every login cost more JavaScript than the rest of the login.

async function writeInOneStatement(db: DB, plan: LoginPlan, input: LoginInput, webhooks: boolean): Promise<LoginIds> {
  const setCols = Object.keys(plan.guestSet);
  const companion = input.companion;
  const values: Record<string, unknown> = { now: plan.now, mac: plan.mac };
  for (const k of GUEST_KEY) values[`g_${k}`] = plan.guestKey[k];
  for (const k of setCols) values[`s_${k}`] = plan.guestSet[k as keyof LoginPlan["guestSet"]];
  for (const k of LOGIN_COLUMNS) values[`l_${k}`] = plan.login[k];
  for (const k of FIRST_HERE) values[`f_${k}`] = plan.firstHere[k];
  for (const k of COUNTER_KEYS) values[`k_${k}`] = plan.counterKeys[k];
  if (companion) for (const [k, v] of Object.entries(companion.values)) values[`x_${k}`] = v;
  if (webhooks) Object.assign(values, eventCteValues(input.accountId, plan.event, input.locationId, plan.at));
  const out = await loginStatement(setCols, companion, webhooks).first<{ guest_id: number; login_id: number }>(db, values);
  if (!out) throw new Error("recording a login returned no row");
  return { guestId: Number(out.guest_id), loginId: Number(out.login_id) };
}

/** PostgreSQL: the login's statements by shape. */
const loginStatements = new Map<string, PreparedQuery<string>>();

function loginStatement(setCols: string[], companion: LoginInput["companion"], webhooks: boolean): PreparedQuery<string> {
  return byShape(loginStatements, `${setCols.join(",")}|${companion?.shape ?? "-"}|${webhooks}`, () => newLoginStatement(setCols, companion, webhooks));
}

function newLoginStatement(setCols: string[], companion: LoginInput["companion"], webhooks: boolean): PreparedQuery<string> {
  const companionKeys = companion ? Object.keys(companion.values) : [];
  const keys = [
    "now",
    "mac",
    ...GUEST_KEY.map((k) => `g_${k}`),
    ...setCols.map((k) => `s_${k}`),
    ...LOGIN_COLUMNS.map((k) => `l_${k}`),
    ...FIRST_HERE.map((k) => `f_${k}`),
    ...COUNTER_KEYS.map((k) => `k_${k}`),
    ...companionKeys.map((k) => `x_${k}`),
    ...(webhooks ? EVENT_CTE_KEYS : []),
  ];
  return new PreparedQuery<string>(keys, (db, p) => ({
    compile: () => loginStatementSql(db, p, setCols, companion && { cte: companion.cte, keys: companionKeys }, webhooks).compile(db),
  }));
}

function loginStatementSql(
  db: DB,
  p: Record<string, never>,
  setCols: string[],
  companion: { cte: NonNullable<LoginInput["companion"]>["cte"]; keys: string[] } | undefined,
  webhooks: boolean,
) {
  const shard = counterShard(db);
  const typed = (v: unknown, t: PgType) => sql`${v}::${sql.raw(t)}`;
  const guestCols = [...GUEST_KEY, ...setCols, "created_at"];
  const guestValues = [
    ...GUEST_KEY.map((k) => typed(p[`g_${k}`], k === "account_id" ? "integer" : "varchar")),
    ...setCols.map((k) => typed(p[`s_${k}`], k === "marketing_opt_in" ? "integer" : "varchar")),
    typed(p.now, "varchar"),
  ];
  const updates = setCols.map((c) => sql`${sql.ref(c)} = excluded.${sql.ref(c)}`);
  const loc = typed(p.k_location_id, "integer");
  const day = typed(p.k_day, "varchar");
  const now = typed(p.now, "varchar");
  const gate = { always: sql``, "first-here": sql` from gl`, "first-visit-today": sql` from dv` };
  const counters = LOGIN_COUNTERS.map(
    (c, i) => sql`, ${sql.id(`c${i}`)} as (
      insert into ${sql.id(c.table)} (${sql.join(c.keys.map((k) => sql.ref(k)))}, shard, count)
      select ${sql.join(c.keys.map((k) => typed(p[`k_${k}`], COUNTER_TYPES[k])))}, ${shard}, 1${gate[c.when]}
      on conflict (${sql.join(c.keys.map((k) => sql.ref(k)))}, shard) do update set count = ${sql.ref(`${c.table}.count`)} + 1
    )`,
  );
  const companionCte = companion ? sql`, ${companion.cte(Object.fromEntries(companion.keys.map((k) => [k, p[`x_${k}`]])) as Record<string, never>)}` : sql``;
  return sql<{ guest_id: number; login_id: number }>`${sql.raw(NAMED_STATEMENT)}
    with g as (
      insert into guests (${sql.join(guestCols.map((c) => sql.ref(c)))}) values (${sql.join(guestValues)})
      on conflict (account_id, social_network, network_user_id) do update set ${sql.join(updates)}
      returning id
    ), l as (
      insert into logins (${sql.join(LOGIN_COLUMNS.map((c) => sql.ref(c)))}, guest_id)
      select ${sql.join(LOGIN_COLUMNS.map((k) => typed(p[`l_${k}`], LOGIN_TYPES[k])))}, g.id from g
      returning id
    ), gl as (
      insert into guest_locations (${sql.join(FIRST_HERE.map((c) => sql.ref(c)))}, guest_id)
      select ${typed(p.f_location_id, "integer")}, ${typed(p.f_campaign_id, "integer")}, ${typed(p.f_first_login_at, "varchar")}, g.id from g
      on conflict (guest_id, location_id) do nothing
      returning guest_id
    ), gm as (
      insert into guest_macs (account_id, client_mac, guest_id, last_login_at)
      select ${typed(p.g_account_id, "integer")}, ${typed(p.mac, "varchar")}, g.id, ${now} from g where ${typed(p.mac, "varchar")} <> ''
      on conflict (account_id, client_mac) do update set guest_id = excluded.guest_id, last_login_at = excluded.last_login_at
    ), dv as (
      insert into daily_visitors (location_id, day, guest_id)
      select ${loc}, ${day}, g.id from g
      on conflict (location_id, day, guest_id) do nothing
      returning guest_id
    )${sql.join(counters, sql``)}${companionCte}${webhooks ? enqueueEventCte("guest.login", { guest_id: sql`g.id`, login_id: sql`l.id` }, ["g", "l"], p) : sql``}
    select g.id as guest_id, l.id as login_id from g, l`;
}
