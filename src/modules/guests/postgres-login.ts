/**
 * PostgreSQL's way of recording a login: one statement of data-modifying CTEs, compiled once per
 * shape (recordLogin in guest-activity.service.ts chooses it; SQLite takes the transaction there).
 */
import { sql } from "kysely";
import type { DB } from "../../db/database.js";
import { counterShard } from "../../db/dialect.js";
import { NAMED_STATEMENT } from "../../db/postgres-pool.js";
import { PreparedQuery } from "../../db/prepared-query.js";
import { EVENT_CTE_KEYS, enqueueEventCte, eventCteValues } from "../webhooks/webhook-events.js";
import { type ConsentColumns, type GuestProfileInput, type LoginInput, loginEventData } from "./login-input.js";
import type { parseUserAgent } from "./user-agent.js";

export interface LoginRow {
  input: LoginInput;
  at: Date;
  now: string;
  day: string;
  hour: number;
  profile: GuestProfileInput;
  agent: ReturnType<typeof parseUserAgent>;
  identity: string;
  consent: ConsentColumns;
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
export async function recordLoginInOneStatement(db: DB, r: LoginRow, webhooks: boolean): Promise<{ guestId: number; loginId: number }> {
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
