/**
 * `guestwifi demo`: fills an account with realistic sample data. Four venues in four time zones,
 * a campaign each (copied from the built-in templates), access points with real vendor MACs, and
 * `days` days of guests, logins and RADIUS reconnects recorded through the same service the portal
 * and RADIUS use (so the daily aggregates are right). The activity is deterministic for a seed and
 * an end instant; secrets, portal slugs and page filenames are random as everywhere else.
 */
import { randomBytes } from "node:crypto";
import type { DB } from "../db/database.js";
import { toDbDatetime } from "../db/time.js";
import { noLogins, parsePayload } from "../modules/campaigns/campaign-payload.js";
import { campaignRepository } from "../modules/campaigns/campaigns.repository.js";
import { deviceRepository } from "../modules/devices/devices.repository.js";
import { recordLogin, recordVisit } from "../modules/guests/guest-activity.service.js";
import { addDays, daysBetween, localDay } from "../modules/guests/local-day.js";
import { locationRepository } from "../modules/locations/locations.repository.js";
import { defaultOptions } from "../modules/locations/locations.service.js";
import { type DemoEvent, type GuestSeed, planActivity } from "./demo-activity.js";
import { AP_OUIS, DEMO_SITES, type DemoSite } from "./demo-catalogue.js";
import { type Rng, hexPairs, pick, seededRng } from "./demo-random.js";

export interface DemoOptions {
  accountId: number;
  /** Days of activity up to `until` (default 90). */
  days?: number;
  seed?: number;
  /** End of the period (default now). The same seed and end give the same activity. */
  until?: Date;
  onProgress?: (msg: string) => void;
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

/** Events per transaction: large enough to be fast, small enough to keep each commit short. */
const BATCH = 500;

const MODEL_VENDOR: Record<string, keyof typeof AP_OUIS> = { meraki: "meraki", ubiquiti: "ubiquiti", tplink: "tplink", glinet: "glinet" };

async function uniqueDeviceMac(db: DB, rng: Rng, model: string): Promise<string> {
  const ouis = AP_OUIS[MODEL_VENDOR[model.split("-")[0]]];
  for (;;) {
    const mac = [pick(rng, ouis), ...hexPairs(rng, 3)].join(":");
    // MACs are unique across the whole service; a second demo run draws again.
    if (!(await deviceRepository.findByMac(db, mac))) return mac;
  }
}

async function createSite(db: DB, accountId: number, site: DemoSite, templateIds: Map<string, number>, rng: Rng, until: Date, since: string): Promise<SiteRecords> {
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
    const heard = { online: toDbDatetime(new Date(until.getTime() - 90_000)), offline: toDbDatetime(new Date(until.getTime() - 2 * 86_400_000)), never: null }[d.heard];
    const id = await deviceRepository.insert(db, {
      account_id: accountId,
      location_id: locationId,
      model_id: d.model,
      name: d.name,
      mac_address: await uniqueDeviceMac(db, rng, d.model),
      radius_secret: randomBytes(18).toString("base64url"),
      firmware_version: "1.0.0",
      last_heard_at: heard,
      create_date: since,
      update_date: since,
    });
    deviceIds.push(id);
  }
  return { site, locationId, campaignId, deviceIds };
}

async function recordBatch(
  trx: DB,
  accountId: number,
  { site, locationId, campaignId, deviceIds }: SiteRecords,
  batch: DemoEvent[],
  guestIds: Map<GuestSeed, number>,
  totals: { logins: number; visits: number },
): Promise<void> {
  for (const e of batch) {
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
      totals.logins++;
    } else {
      // A reconnect is always planned for a guest who logged in on an earlier day.
      const guestId = guestIds.get(e.guest);
      if (guestId === undefined) continue;
      await recordVisit(trx, { locationId, timezone: site.timezone, guestId, at: e.at });
      totals.visits++;
    }
  }
}

export async function generateDemo(db: DB, opts: DemoOptions): Promise<DemoSummary> {
  const days = opts.days ?? 90;
  if (!Number.isInteger(days) || days < 1 || days > 3650) throw new RangeError("days must be a whole number from 1 to 3650");
  const seed = opts.seed ?? 42;
  const until = opts.until ?? new Date();
  const progress = opts.onProgress ?? (() => {});
  // Two streams: device MACs may need redrawing (a second run), which must not shift the activity.
  const activityRng = seededRng(seed);
  const macRng = seededRng(seed ^ 0x5bd1e995);
  const since = toDbDatetime(new Date(until.getTime() - (days + 1) * 86_400_000));

  const templates = (await campaignRepository.listUsable(db, opts.accountId)).filter((c) => c.account_id === null);
  const templateIds = new Map(templates.map((t) => [t.name, t.id]));
  const sites = await db.transaction().execute(async (trx) => {
    const out: SiteRecords[] = [];
    for (const site of DEMO_SITES) out.push(await createSite(trx, opts.accountId, site, templateIds, macRng, until, since));
    return out;
  });
  const devices = DEMO_SITES.reduce((n, s) => n + s.devices.length, 0);
  progress(`created ${sites.length} locations, ${sites.length} campaigns and ${devices} devices`);

  const localDays = sites.map(({ site }) => {
    const last = localDay(until, site.timezone);
    return daysBetween(addDays(last, 1 - days), last);
  });
  const events = planActivity(activityRng, DEMO_SITES, localDays, until);
  progress(`recording ${events.length} logins and visits over ${days} days`);

  // Each guest belongs to one venue, so venues are recorded side by side (on PostgreSQL, on
  // connections of their own) without ever touching the same rows; each in time order.
  const guestIds = new Map<GuestSeed, number>();
  const totals = { logins: 0, visits: 0, done: 0, reported: 0 };
  const report = () => {
    if (totals.done === events.length || totals.done - totals.reported >= events.length / 10) {
      totals.reported = totals.done;
      progress(`${Math.round((100 * totals.done) / events.length)}%: ${totals.logins} logins, ${totals.visits} visits`);
    }
  };
  await Promise.all(
    sites.map(async (records, s) => {
      const own = events.filter((e) => e.site === s);
      for (let start = 0; start < own.length; start += BATCH) {
        const batch = own.slice(start, start + BATCH);
        await db.transaction().execute((trx) => recordBatch(trx, opts.accountId, records, batch, guestIds, totals));
        totals.done += batch.length;
        report();
      }
    }),
  );
  const { logins, visits } = totals;
  return { locations: sites.length, campaigns: sites.length, devices, guests: new Set(guestIds.values()).size, logins, visits };
}
