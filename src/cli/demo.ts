/**
 * `guestwifi demo`: fills an account with realistic sample data. Four venues in four time zones,
 * a campaign each (copied from the built-in templates), access points with real vendor MACs, and
 * `days` days of guests, logins and RADIUS reconnects recorded through the same service the portal
 * and RADIUS use (so the daily aggregates are right). The activity is deterministic for a seed and
 * an end instant; secrets, portal slugs and page filenames are random as everywhere else.
 *
 * All of it is one transaction: a run that is killed or interrupted leaves nothing behind, and a
 * second run for an account that has the demo venues writes nothing (writeDemo).
 */
import { randomBytes } from "node:crypto";
import type { DB } from "../db/database.js";
import { toDbDatetime } from "../db/time.js";
import { inTransaction, transaction } from "../db/transaction.js";
import { createAccount } from "../modules/accounts/accounts.service.js";
import { mailbox } from "../modules/accounts/mailbox.js";
import { noLogins, parsePayload } from "../modules/campaigns/campaign-payload.js";
import type { Ctx, Repositories } from "../modules/context.js";
import { newRadiusSecret } from "../modules/devices/devices.service.js";
import { recordLogin, recordUsage, recordVisit } from "../modules/guests/guest-activity.service.js";
import { addDays, daysBetween, localDay } from "../modules/guests/local-day.js";
import { defaultOptions } from "../modules/locations/locations.service.js";
import { type DemoEvent, type GuestSeed, planActivity } from "./demo-activity.js";
import { AP_OUIS, DEMO_SITES, type DemoSite } from "./demo-catalogue.js";
import { type Rng, hexPairs, pick, seededRng } from "./demo-random.js";
import { DAY_MS } from "../durations.js";

export interface DemoOptions {
  accountId: number;
  /** Days of activity up to `until` (default 90). */
  days?: number;
  seed?: number;
  /** End of the period (default now). The same seed and end give the same activity. */
  until?: Date;
  onProgress?: (msg: string) => void;
  /** Aborting it stops the run between two writes; its transaction is then rolled back. */
  signal?: AbortSignal;
}

export interface DemoSummary {
  locations: number;
  campaigns: number;
  devices: number;
  guests: number;
  logins: number;
  /** RADIUS reconnects of returning guests (visits without a login). */
  visits: number;
}

interface SiteRecords {
  site: DemoSite;
  locationId: number;
  campaignId: number;
  /** Ids of the site's devices, in catalogue order. */
  deviceIds: number[];
}

const MODEL_VENDOR: Record<string, keyof typeof AP_OUIS> = { meraki: "meraki", ubiquiti: "ubiquiti", tplink: "tplink", glinet: "glinet" };

async function uniqueDeviceMac(db: DB, { devices: deviceRepository }: Repositories, rng: Rng, model: string): Promise<string> {
  const ouis = AP_OUIS[MODEL_VENDOR[model.split("-")[0]]];
  for (;;) {
    const mac = [pick(rng, ouis), ...hexPairs(rng, 3)].join(":");
    // MACs are unique across the whole service; a second demo run draws again.
    if (!(await deviceRepository.findByMac(db, mac))) return mac;
  }
}

async function createSite(
  db: DB,
  repos: Repositories,
  accountId: number,
  site: DemoSite,
  templateIds: Map<string, number>,
  rng: Rng,
  until: Date,
  since: string,
): Promise<SiteRecords> {
  const { campaigns: campaignRepository, locations: locationRepository, devices: deviceRepository } = repos;
  const template = await campaignRepository.findById(db, templateIds.get(site.campaign.template)!);
  const c = site.campaign;
  const payload = {
    ...parsePayload(template!.payload),
    ssid: c.ssid,
    title_text: c.title_text,
    footer_text: c.footer_text,
    text_color: c.text_color,
    background: c.background,
    redirect_url: c.redirect_url,
    login_options: { ...noLogins(), ...Object.fromEntries(Object.keys(c.methods).map((m) => [m, true])) },
  };
  const campaignId = await campaignRepository.insert(db, {
    account_id: accountId,
    name: c.name,
    ssid: c.ssid,
    payload: JSON.stringify(payload),
    filename: `c-${randomBytes(9).toString("base64url")}.html`,
    date_created: since,
    last_modified: since,
    deleted: 0,
  });
  const locationId = await locationRepository.insert(db, {
    account_id: accountId,
    name: site.name,
    address1: site.address1,
    town: site.town,
    state: site.state,
    zipcode: site.zipcode,
    country: site.country,
    phone_number: site.phone_number,
    timezone: site.timezone,
    latitude: site.latitude,
    longitude: site.longitude,
    website: site.website,
    portal_slug: randomBytes(9).toString("base64url"),
    default_campaign_id: campaignId,
    date_created: since,
    last_modified: since,
    deleted: 0,
  });
  await locationRepository.upsertOptions(db, { ...defaultOptions(locationId), ...site.options, updated_at: since });
  const deviceIds: number[] = [];
  for (const d of site.devices) {
    const heard = { online: toDbDatetime(new Date(until.getTime() - 90_000)), offline: toDbDatetime(new Date(until.getTime() - 2 * DAY_MS)), never: null }[d.heard];
    const id = await deviceRepository.insert(db, {
      account_id: accountId,
      location_id: locationId,
      model_id: d.model,
      name: d.name,
      mac_address: await uniqueDeviceMac(db, repos, rng, d.model),
      radius_secret: newRadiusSecret(),
      firmware_version: "1.0.0",
      last_heard_at: heard,
      create_date: since,
      update_date: since,
    });
    deviceIds.push(id);
  }
  return { site, locationId, campaignId, deviceIds };
}

async function recordEvent(
  trx: DB,
  accountId: number,
  { site, locationId, campaignId, deviceIds }: SiteRecords,
  e: DemoEvent,
  guestIds: Map<GuestSeed, number>,
  totals: { logins: number; visits: number },
): Promise<void> {
  if (e.kind === "login") {
    const { guestId } = await recordLogin(trx, {
      accountId,
      locationId,
      timezone: site.timezone,
      campaignId,
      deviceId: e.device >= 0 ? deviceIds[e.device] : null,
      loginType: e.guest.loginType,
      identity: e.guest.identity,
      profile: e.guest.profile,
      clientMac: e.guest.clientMac,
      userAgent: e.guest.userAgent,
      at: e.at,
    });
    guestIds.set(e.guest, guestId);
    await recordUsage(trx, { guestId, locationId, timezone: site.timezone, octets: demoOctets(e.at), at: e.at });
    totals.logins++;
    return;
  }
  // A reconnect is always planned for a guest who logged in on an earlier day.
  const guestId = guestIds.get(e.guest);
  if (guestId === undefined) return;
  await recordVisit(trx, { locationId, timezone: site.timezone, guestId, at: e.at });
  await recordUsage(trx, { guestId, locationId, timezone: site.timezone, octets: demoOctets(e.at), at: e.at });
  totals.visits++;
}

/**
 * Data used in one stay: 5 to 400 MB, spread by the event's time rather than drawn from the seeded
 * generator, so that the planned activity (and its totals) stays what it was.
 */
function demoOctets(at: Date): number {
  const x = Math.sin(at.getTime() / 997) * 10_000;
  const unit = x - Math.floor(x);
  return Math.round((5 + unit * unit * 395) * 1_000_000);
}

/** The demo for one account, in `ctx.db`'s transaction when it is one, else in a transaction of its own. */
export async function generateDemo(ctx: Ctx, opts: DemoOptions): Promise<DemoSummary> {
  return inTransaction(ctx.db, (trx) => generateInTransaction(trx, ctx.repos, opts));
}

async function generateInTransaction(trx: DB, repos: Repositories, opts: DemoOptions): Promise<DemoSummary> {
  const days = opts.days ?? 90;
  if (!Number.isInteger(days) || days < 1 || days > 3650) throw new RangeError("days must be a whole number from 1 to 3650");
  const seed = opts.seed ?? 42;
  const until = opts.until ?? new Date();
  const progress = opts.onProgress ?? (() => {});
  const stopIfAsked = () => opts.signal?.throwIfAborted();
  // Two streams: device MACs may need redrawing (a second run), which must not shift the activity.
  const activityRng = seededRng(seed);
  const macRng = seededRng(seed ^ 0x5bd1e995);
  const since = toDbDatetime(new Date(until.getTime() - (days + 1) * DAY_MS));

  const templates = (await repos.campaigns.listUsable(trx, opts.accountId)).filter((c) => c.account_id === null);
  const templateIds = new Map(templates.map((t) => [t.name, t.id]));
  const sites: SiteRecords[] = [];
  for (const site of DEMO_SITES) {
    stopIfAsked();
    sites.push(await createSite(trx, repos, opts.accountId, site, templateIds, macRng, until, since));
  }
  const devices = DEMO_SITES.reduce((n, s) => n + s.devices.length, 0);
  progress(`created ${sites.length} locations, ${sites.length} campaigns and ${devices} devices`);

  const localDays = sites.map(({ site }) => {
    const last = localDay(until, site.timezone);
    return daysBetween(addDays(last, 1 - days), last);
  });
  const events = planActivity(activityRng, DEMO_SITES, localDays, until);
  progress(`recording ${events.length} logins and visits over ${days} days`);

  const guestIds = new Map<GuestSeed, number>();
  const totals = { logins: 0, visits: 0 };
  let reported = 0;
  for (let i = 0; i < events.length; i++) {
    // SQLite answers synchronously: without a turn of the event loop now and then, a signal would
    // only be seen once everything is written.
    if (i % 200 === 0) await new Promise((resolve) => setImmediate(resolve));
    stopIfAsked();
    await recordEvent(trx, opts.accountId, sites[events[i].site], events[i], guestIds, totals);
    const done = i + 1;
    if (done === events.length || done - reported >= events.length / 10) {
      reported = done;
      progress(`${Math.round((100 * done) / events.length)}%: ${totals.logins} logins, ${totals.visits} visits`);
    }
  }
  const { logins, visits } = totals;
  return { locations: sites.length, campaigns: sites.length, devices, guests: new Set(guestIds.values()).size, logins, visits };
}

export type DemoOutcome =
  | { written: true; accountId: number; /** Only for an account this run created. */ identifier: string | null; summary: DemoSummary }
  | { written: false; accountId: number; venues: number };

/**
 * The demo for the account with `email` (created when missing), all in one transaction. An account
 * that already has a live location named like a demo venue has the demo: nothing is written, so a
 * re-run never duplicates venues or adds activity. The account's row is held meanwhile, so two
 * runs at once take turns and the second finds the first one's venues.
 */
export async function writeDemo(ctx: Ctx, opts: Omit<DemoOptions, "accountId"> & { email: string }): Promise<DemoOutcome> {
  const names = new Set(DEMO_SITES.map((s) => s.name));
  const { accounts, locations } = ctx.repos;
  return transaction(ctx.db, async (trx) => {
    opts.signal?.throwIfAborted();
    const inTrx = { ...ctx, db: trx };
    const existing = await accounts.findAccountByEmail(trx, mailbox(opts.email));
    const created = existing ? undefined : await createAccount(inTrx, opts.email);
    const accountId = existing?.id ?? created!.accountId;
    await accounts.holdForWrite(trx, accountId);
    const venues = (await locations.listLive(trx, accountId)).filter((l) => names.has(l.name)).length;
    if (venues > 0) return { written: false, accountId, venues };
    const summary = await generateDemo(inTrx, { ...opts, accountId });
    return { written: true, accountId, identifier: created?.identifier ?? null, summary };
  });
}
