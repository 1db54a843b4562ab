/**
 * Recording what guests do: a login through the portal, a visit (a guest connected on a day),
 * both keeping the daily aggregates that analytics read. The portal, RADIUS and the demo data
 * generator all record through here, never around it.
 */
import { type Insertable, sql } from "kysely";
import type { DB } from "../../db/database.js";
import { NAMED_STATEMENT } from "../../db/postgres-pool.js";
import { PreparedQuery } from "../../db/prepared-query.js";
import type { PortalCredentialsTable } from "../../db/schema.js";
import { counterShard, dialectOf, increment } from "../../db/dialect.js";
import { toDbDatetime } from "../../db/time.js";
import { EVENT_CTE_KEYS, enqueueEvent, enqueueEventCte, eventCteValues, mayHaveWebhooks } from "../webhooks/webhook-events.js";
import { localDay, localDayHour } from "./local-day.js";
import type { LoginType } from "./login-types.js";
import { parseUserAgent } from "./user-agent.js";

export interface GuestProfileInput {
  email?: string;
  full_name?: string;
  username?: string;
  gender?: string;
  phone_number?: string;
  birthdate?: string;
  age?: string;
  locale?: string;
  picture_url?: string;
}

export interface LoginInput {
  accountId: number;
  locationId: number;
  /** The location's time zone: the login counts on that local day. */
  timezone: string;
  campaignId: number;
  deviceId: number | null;
  loginType: LoginType;
  /** The guest's identity within the login type: the network's user id, or the e-mail / phone for forms. */
  identity: string;
  profile: GuestProfileInput;
  /** Canonical client MAC (upper case, colons), or "" when the gateway did not give one. */
  clientMac: string;
  userAgent: string;
  at?: Date;
  /**
   * A one-time RADIUS credential for this guest (src/radius/portal-credentials.ts), stored with the
   * login: one commit, and a login that answered always has its credential.
   */
  credential?: Omit<Insertable<PortalCredentialsTable>, "guest_id">;
  /** What the guest accepted on the page (none: nothing was asked, all 0 and ""). */
  consent?: LoginConsent;
  /** The voucher the guest logged in with. */
  voucherId?: number | null;
  /**
   * The guest opted in to marketing at this login, for callers without a consent step of their own
   * (imports); the portal's logins say it through `consent`. Otherwise the guest counts as not opted
   * in, and guest.login webhooks carry ids only.
   */
  marketingOptIn?: boolean;
}

/**
 * The guest.login event's data, without the guest and login ids (added where they are known).
 * Personal fields only for a login with a marketing opt-in (docs/guest-data.md).
 */
export function loginEventData(input: LoginInput, profile: GuestProfileInput, at: Date): Record<string, unknown> {
  const optedIn = input.marketingOptIn === true || (input.consent?.marketingAsked === true && input.consent.marketingOptIn);
  const data: Record<string, unknown> = {
    location_id: input.locationId,
    campaign_id: input.campaignId,
    device_id: input.deviceId,
    login_type: input.loginType,
    logged_at: toDbDatetime(at),
    marketing_opt_in: optedIn,
  };
  if (optedIn) {
    Object.assign(data, {
      email: profile.email ?? "",
      full_name: profile.full_name ?? "",
      phone_number: profile.phone_number ?? "",
      client_mac: input.clientMac,
    });
  }
  return data;
}

export interface LoginConsent {
  termsAccepted: boolean;
  /** Whether the page offered the marketing opt-in: only then is the guest's latest choice replaced. */
  marketingAsked: boolean;
  marketingOptIn: boolean;
  termsVersion: string;
  marketingVersion: string;
}

/** The login's consent columns, and the guest's when the page asked about marketing. */
function consentColumns(c: LoginConsent | undefined, now: string) {
  const login = {
    terms_accepted: c?.termsAccepted ? 1 : 0,
    marketing_opt_in: c?.marketingAsked && c.marketingOptIn ? 1 : 0,
    terms_version: (c?.termsVersion ?? "").slice(0, 64),
    marketing_version: c?.marketingAsked ? c.marketingVersion.slice(0, 64) : "",
  };
  const guest = c?.marketingAsked
    ? { marketing_opt_in: login.marketing_opt_in, marketing_opt_in_at: now, marketing_version: login.marketing_version }
    : undefined;
  return { login, guest };
}

const PROFILE_LIMITS: Record<keyof GuestProfileInput, number> = {
  email: 254,
  full_name: 255,
  username: 255,
  gender: 32,
  phone_number: 32,
  birthdate: 10,
  age: 16,
  locale: 32,
  picture_url: 2048,
};

/** Only the fields given (non-empty), cut to their column sizes: a login never blanks a known field. */
function profileUpdate(p: GuestProfileInput): GuestProfileInput {
  const out: GuestProfileInput = {};
  for (const [k, max] of Object.entries(PROFILE_LIMITS) as [keyof GuestProfileInput, number][]) {
    const v = p[k];
    if (typeof v === "string" && v.trim() !== "") out[k] = v.trim().slice(0, max);
  }
  return out;
}

/** Runs `fn` in a new transaction, or in the caller's when `db` already is one (batched writers such as the demo generator). */
function inTransaction<T>(db: DB, fn: (trx: DB) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

/** Records a login and everything that follows from it, atomically. */
export async function recordLogin(db: DB, input: LoginInput): Promise<{ guestId: number; loginId: number }> {
  const at = input.at ?? new Date();
  const now = toDbDatetime(at);
  const { day, hour } = localDayHour(at, input.timezone);
  const profile = profileUpdate(input.profile);
  const agent = parseUserAgent(input.userAgent);
  const identity = input.identity.trim().toLowerCase().slice(0, 255);

  const consent = consentColumns(input.consent, now);
  const row: LoginRow = { input, at, now, day, hour, profile, agent, identity, consent };
  if (dialectOf(db) === "postgres") return recordLoginInOneStatement(db, row, await mayHaveWebhooks(db, input.accountId));

  return inTransaction(db, async (trx) => {
    const guest = await trx
      .insertInto("guests")
      .values({
        account_id: input.accountId,
        social_network: input.loginType,
        network_user_id: identity,
        ...profile,
        ...consent.guest,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc.columns(["account_id", "social_network", "network_user_id"]).doUpdateSet({ ...profile, ...consent.guest, updated_at: now }),
      )
      .returning("id")
      .executeTakeFirstOrThrow();

    const login = await trx
      .insertInto("logins")
      .values({
        account_id: input.accountId,
        guest_id: guest.id,
        location_id: input.locationId,
        campaign_id: input.campaignId,
        device_id: input.deviceId,
        login_type: input.loginType,
        client_mac: input.clientMac,
        user_agent: input.userAgent.slice(0, 1024),
        ...agent,
        logged_at: now,
        local_day: day,
        ...consent.login,
        voucher_id: input.voucherId ?? null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();

    const firstHere = await trx
      .insertInto("guest_locations")
      .values({ guest_id: guest.id, location_id: input.locationId, campaign_id: input.campaignId, first_login_at: now })
      .onConflict((oc) => oc.columns(["guest_id", "location_id"]).doNothing())
      .executeTakeFirst();
    if (Number(firstHere.numInsertedOrUpdatedRows ?? 0) > 0) {
      // A new guest of this location: counted on the day of the first login, for "new against returning".
      await trx
        .insertInto("daily_new_guests")
        .values({ location_id: input.locationId, day, shard: counterShard(trx), count: 1 })
        .onConflict((oc) => oc.columns(["location_id", "day", "shard"]).doUpdateSet({ count: increment("daily_new_guests.count") }))
        .execute();
    }

    if (input.clientMac) {
      await trx
        .insertInto("guest_macs")
        .values({ account_id: input.accountId, client_mac: input.clientMac, guest_id: guest.id, last_login_at: now })
        .onConflict((oc) => oc.columns(["account_id", "client_mac"]).doUpdateSet({ guest_id: guest.id, last_login_at: now }))
        .execute();
    }

    await trx
      .insertInto("daily_logins")
      .values({ location_id: input.locationId, day, login_type: input.loginType, shard: counterShard(trx), count: 1 })
      .onConflict((oc) => oc.columns(["location_id", "day", "login_type", "shard"]).doUpdateSet({ count: increment("daily_logins.count") }))
      .execute();

    await trx
      .insertInto("hourly_logins")
      .values({ location_id: input.locationId, day, hour, shard: counterShard(trx), count: 1 })
      .onConflict((oc) => oc.columns(["location_id", "day", "hour", "shard"]).doUpdateSet({ count: increment("hourly_logins.count") }))
      .execute();

    await countVisit(trx, input.locationId, day, guest.id);
    if (input.credential) await trx.insertInto("portal_credentials").values({ ...input.credential, guest_id: guest.id }).execute();
    await enqueueEvent(trx, input.accountId, "guest.login", { guest_id: guest.id, login_id: login.id, ...loginEventData(input, profile, at) }, input.locationId, at);
    return { guestId: guest.id, loginId: login.id };
  });
}

interface LoginRow {
  input: LoginInput;
  at: Date;
  now: string;
  day: string;
  hour: number;
  profile: GuestProfileInput;
  agent: ReturnType<typeof parseUserAgent>;
  identity: string;
  consent: ReturnType<typeof consentColumns>;
}

/**
 * PostgreSQL: the whole login as one statement of data-modifying CTEs, atomic by itself (or part
 * of the caller's transaction): one round trip instead of ten, and the counter rows (sharded by
 * connection) are locked only for the end of one statement and its commit. `webhooks`: the account
 * may have a webhook (a cached flag), so the statement queues guest.login in the outbox too.
 *
 * The statement's text depends only on its shape (which profile fields are given, whether the page
 * asked about marketing, the credential's columns, webhooks): it is built and compiled once per
 * shape (`loginStatement`) and each login only binds its values. Building it with Kysely on every
 * login cost more JavaScript than the rest of the login's work.
 */
async function recordLoginInOneStatement(db: DB, r: LoginRow, webhooks: boolean): Promise<{ guestId: number; loginId: number }> {
  const { input, at, now, day, hour, profile, agent, identity, consent } = r;
  const profileCols = Object.keys(profile) as (keyof GuestProfileInput)[];
  const credentialCols = input.credential ? (Object.keys(input.credential) as CredentialColumn[]) : undefined;
  const g = consent.guest;
  const cl = consent.login;
  const values: Record<string, unknown> = {
    accountId: input.accountId,
    loginType: input.loginType,
    identity,
    now,
    locationId: input.locationId,
    campaignId: input.campaignId,
    deviceId: input.deviceId,
    clientMac: input.clientMac,
    userAgent: input.userAgent.slice(0, 1024),
    browserName: agent.browser_name,
    osName: agent.os_name,
    osVersion: agent.os_version,
    deviceType: agent.device_type,
    deviceBrand: agent.device_brand,
    day,
    hour,
    termsAccepted: cl.terms_accepted,
    loginMarketingOptIn: cl.marketing_opt_in,
    termsVersion: cl.terms_version,
    loginMarketingVersion: cl.marketing_version,
    voucherId: input.voucherId ?? null,
  };
  for (const k of profileCols) values[`profile_${k}`] = profile[k];
  if (g) {
    values.guestMarketingOptIn = g.marketing_opt_in;
    values.guestMarketingOptInAt = g.marketing_opt_in_at;
    values.guestMarketingVersion = g.marketing_version;
  }
  if (input.credential) for (const k of credentialCols!) values[`credential_${k}`] = input.credential[k] ?? null;
  if (webhooks) Object.assign(values, eventCteValues(input.accountId, loginEventData(input, profile, at), input.locationId, at));
  const statement = loginStatement(profileCols, g !== undefined, credentialCols, webhooks);
  const out = await statement.first<{ guest_id: number; login_id: number }>(db, values);
  if (!out) throw new Error("recording a login returned no row");
  return { guestId: Number(out.guest_id), loginId: Number(out.login_id) };
}

type CredentialColumn = keyof NonNullable<LoginInput["credential"]> & string;

/** Login statements by shape; the shapes real logins take are few (the profile fields a login method gives). */
const loginStatements = new Map<string, PreparedQuery<string>>();
const MAX_LOGIN_SHAPES = 256;

/** The login statement of a shape, its values named as recordLoginInOneStatement binds them. */
function loginStatement(profileCols: string[], guestConsent: boolean, credentialCols: string[] | undefined, webhooks: boolean): PreparedQuery<string> {
  const shape = `${profileCols.join(",")}|${guestConsent}|${credentialCols?.join(",") ?? "-"}|${webhooks}`;
  const known = loginStatements.get(shape);
  if (known) return known;
  const keys = [
    ...["accountId", "loginType", "identity", "now", "locationId", "campaignId", "deviceId", "clientMac", "userAgent"],
    ...["browserName", "osName", "osVersion", "deviceType", "deviceBrand", "day", "hour"],
    ...["termsAccepted", "loginMarketingOptIn", "termsVersion", "loginMarketingVersion", "voucherId"],
    ...profileCols.map((k) => `profile_${k}`),
    ...(guestConsent ? ["guestMarketingOptIn", "guestMarketingOptInAt", "guestMarketingVersion"] : []),
    ...(credentialCols ?? []).map((k) => `credential_${k}`),
    ...(webhooks ? EVENT_CTE_KEYS : []),
  ];
  const statement = new PreparedQuery<string>(keys, (db, p) => ({
    compile: () => loginStatementSql(db, p, profileCols, guestConsent, credentialCols, webhooks).compile(db),
  }));
  if (loginStatements.size >= MAX_LOGIN_SHAPES) loginStatements.clear();
  loginStatements.set(shape, statement);
  return statement;
}

function loginStatementSql(
  db: DB,
  p: Record<string, never>,
  profileCols: string[],
  guestConsent: boolean,
  credentialCols: string[] | undefined,
  webhooks: boolean,
) {
  const shard = counterShard(db);
  const consentCols = guestConsent ? ["marketing_opt_in", "marketing_opt_in_at", "marketing_version"] : [];
  const consentValues = guestConsent
    ? [sql`${p.guestMarketingOptIn}::integer`, sql`${p.guestMarketingOptInAt}::varchar`, sql`${p.guestMarketingVersion}::varchar`]
    : [];
  const guestCols = ["account_id", "social_network", "network_user_id", ...profileCols, ...consentCols, "created_at", "updated_at"];
  const guestValues = [p.accountId, p.loginType, p.identity, ...profileCols.map((k) => p[`profile_${k}`]), ...consentValues, p.now, p.now];
  const updates = [...profileCols, ...consentCols, "updated_at"].map((c) => sql`${sql.ref(c)} = excluded.${sql.ref(c)}`);
  const loc = sql`${p.locationId}::integer`;
  const dayText = sql`${p.day}::varchar`;
  const nowText = sql`${p.now}::varchar`;
  return sql<{ guest_id: number; login_id: number }>`${sql.raw(NAMED_STATEMENT)}
    with g as (
      insert into guests (${sql.join(guestCols.map((c) => sql.ref(c)))}) values (${sql.join(guestValues)})
      on conflict (account_id, social_network, network_user_id) do update set ${sql.join(updates)}
      returning id
    ), l as (
      insert into logins (account_id, guest_id, location_id, campaign_id, device_id, login_type, client_mac, user_agent,
        browser_name, os_name, os_version, device_type, device_brand, logged_at, local_day,
        terms_accepted, marketing_opt_in, terms_version, marketing_version, voucher_id)
      select ${p.accountId}::integer, g.id, ${loc}, ${p.campaignId}::integer, ${p.deviceId}::integer,
        ${p.loginType}::varchar, ${p.clientMac}::varchar, ${p.userAgent}::varchar,
        ${p.browserName}::varchar, ${p.osName}::varchar, ${p.osVersion}::varchar,
        ${p.deviceType}::varchar, ${p.deviceBrand}::varchar, ${nowText}, ${dayText},
        ${p.termsAccepted}::integer, ${p.loginMarketingOptIn}::integer, ${p.termsVersion}::varchar, ${p.loginMarketingVersion}::varchar,
        ${p.voucherId}::integer
      from g
      returning id
    ), gl as (
      insert into guest_locations (guest_id, location_id, campaign_id, first_login_at)
      select g.id, ${loc}, ${p.campaignId}::integer, ${nowText} from g
      on conflict (guest_id, location_id) do nothing
      returning guest_id
    ), dng as (
      insert into daily_new_guests (location_id, day, shard, count)
      select ${loc}, ${dayText}, ${shard}, 1 from gl
      on conflict (location_id, day, shard) do update set count = daily_new_guests.count + 1
    ), gm as (
      insert into guest_macs (account_id, client_mac, guest_id, last_login_at)
      select ${p.accountId}::integer, ${p.clientMac}::varchar, g.id, ${nowText} from g where ${p.clientMac}::varchar <> ''
      on conflict (account_id, client_mac) do update set guest_id = excluded.guest_id, last_login_at = excluded.last_login_at
    ), dl as (
      insert into daily_logins (location_id, day, login_type, shard, count)
      values (${loc}, ${dayText}, ${p.loginType}::varchar, ${shard}, 1)
      on conflict (location_id, day, login_type, shard) do update set count = daily_logins.count + 1
    ), hl as (
      insert into hourly_logins (location_id, day, hour, shard, count)
      values (${loc}, ${dayText}, ${p.hour}::integer, ${shard}, 1)
      on conflict (location_id, day, hour, shard) do update set count = hourly_logins.count + 1
    ), dv as (
      insert into daily_visitors (location_id, day, guest_id)
      select ${loc}, ${dayText}, g.id from g
      on conflict (location_id, day, guest_id) do nothing
      returning guest_id
    ), dvs as (
      insert into daily_visits (location_id, day, shard, count)
      select ${loc}, ${dayText}, ${shard}, 1 from dv
      on conflict (location_id, day, shard) do update set count = daily_visits.count + 1
    )${credentialInsert(p, credentialCols)}${webhooks ? enqueueEventCte("guest.login", { guest_id: sql`g.id`, login_id: sql`l.id` }, ["g", "l"], p) : sql``}
    select g.id as guest_id, l.id as login_id from g, l`;
}

/** The CTE that stores the login's credential, with the guest of `g`. */
function credentialInsert(p: Record<string, never>, cols: string[] | undefined) {
  if (!cols) return sql``;
  const integer = (k: string) => k === "device_id" || k === "location_id" || k === "voucher_id";
  return sql`, pc as (
      insert into portal_credentials (${sql.join(cols.map((k) => sql.ref(k)))}, guest_id)
      select ${sql.join(cols.map((k) => sql`${p[`credential_${k}`]}::${sql.raw(integer(k) ? "integer" : "varchar")}`))}, g.id from g
    )`;
}

/** Counts the guest as a visitor of the location on that local day, once per day. Returns true the first time. */
export async function countVisit(db: DB, locationId: number, day: string, guestId: number): Promise<boolean> {
  const inserted = await db
    .insertInto("daily_visitors")
    .values({ location_id: locationId, day, guest_id: guestId })
    .onConflict((oc) => oc.columns(["location_id", "day", "guest_id"]).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
  await db
    .insertInto("daily_visits")
    .values({ location_id: locationId, day, shard: counterShard(db), count: 1 })
    .onConflict((oc) => oc.columns(["location_id", "day", "shard"]).doUpdateSet({ count: increment("daily_visits.count") }))
    .execute();
  return true;
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
