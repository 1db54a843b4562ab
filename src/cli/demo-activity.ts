/**
 * Plans the demo's guest activity: who logs in where and when, day by day, with each venue's daily
 * and weekly rhythm, a slow growth over the period, regulars who keep coming back, and returning
 * guests who reconnect through RADIUS without the login page (visits, not logins).
 */
import type { LoginMethod } from "../modules/campaigns/campaign-payload.js";
import type { GuestProfileInput } from "../modules/guests/guest-activity.service.js";
import { zonedInstant } from "../modules/guests/local-day.js";
import { type LoginType, loginTypeOfMethod } from "../modules/guests/login-types.js";
import { AGE_RANGES, CLIENT_OUIS, type DemoSite, EMAIL_DOMAINS, NAMES, USER_AGENTS } from "./demo-catalogue.js";
import { type Rng, around, hexPairs, intBetween, pick, weightedIndex, weightedPick } from "./demo-random.js";

export interface GuestSeed {
  loginType: LoginType;
  identity: string;
  profile: GuestProfileInput;
  clientMac: string;
  userAgent: string;
}

export interface DemoEvent {
  at: Date;
  site: number;
  /** Index in the site's devices of the access point a login came through, or -1. */
  device: number;
  kind: "login" | "visit";
  guest: GuestSeed;
}

/** Share of logins by guests seen on an earlier day. */
const RETURN_RATE = 0.32;
/** RADIUS reconnects per login on the same day. */
const RECONNECT_RATE = 0.3;
/** Returning guests are let in by MAC for this many of their most recent fellow guests. */
const RECONNECT_POOL = 400;

function digits(rng: Rng, n: number): string {
  let s = String(intBetween(rng, 1, 9));
  while (s.length < n) s += String(intBetween(rng, 0, 9));
  return s;
}

/** Three octets that differ for every guest number below 2^24 (an odd multiplier is a bijection). */
function uniqueOctets(n: number): string[] {
  const v = Math.imul(n + 1, 0x9e3779) & 0xffffff;
  return [v >>> 16, (v >>> 8) & 0xff, v & 0xff].map((x) => x.toString(16).toUpperCase().padStart(2, "0"));
}

/**
 * Most phones now show the network a random, locally administered MAC; some keep the vendor's.
 * The last three octets come from the guest number, so two guests never share a MAC.
 */
function clientMac(rng: Rng, n: number): string {
  if (rng() < 0.3) return [pick(rng, CLIENT_OUIS), ...uniqueOctets(n)].join(":");
  const [first, second, third] = hexPairs(rng, 3);
  const local = ((Number.parseInt(first, 16) & 0xfc) | 0x02).toString(16).toUpperCase().padStart(2, "0");
  return [local, second, third, ...uniqueOctets(n)].join(":");
}

/**
 * A new guest. `n` numbers the guests of the whole run: it keeps identities (e-mail handles, MACs)
 * apart, so that each guest belongs to one venue and venues can be recorded side by side.
 */
export function makeGuest(rng: Rng, site: DemoSite, method: LoginMethod, n: number): GuestSeed {
  const loginType = loginTypeOfMethod(method);
  const names = NAMES[site.names];
  const gender = rng() < 0.5 ? "female" : "male";
  const first = pick(rng, names[gender]);
  const last = pick(rng, names.last);
  const full_name = `${first} ${last}`;
  const handle = `${first}.${last}${n}`.toLowerCase();
  const email = `${handle}@${pick(rng, EMAIL_DOMAINS)}`;
  const mac = clientMac(rng, n);
  const userAgent = weightedPick(rng, USER_AGENTS);
  const locale = site.locale;
  const base = { clientMac: mac, userAgent, loginType };
  switch (loginType) {
    case "FBUser":
      return { ...base, identity: `${digits(rng, 9)}${String(n).padStart(7, "0")}`, profile: { full_name, email, gender, locale, age: weightedPick(rng, AGE_RANGES) } };
    case "IGuser":
      return { ...base, identity: `${digits(rng, 10)}${String(n).padStart(7, "0")}`, profile: { full_name, username: handle.replace(".", "_") } };
    case "TWuser":
      return { ...base, identity: `${digits(rng, 11)}${String(n).padStart(7, "0")}`, profile: { full_name, username: `${first}${last}${n}` } };
    case "LIuser":
      return { ...base, identity: `li-${digits(rng, 5)}${String(n).padStart(7, "0")}`, profile: { full_name, email, locale } };
    case "Twilio": {
      const phone = `${site.phonePrefix}${String(n).padStart(site.phoneLength - site.phonePrefix.length, "0")}`;
      return { ...base, identity: phone, profile: { phone_number: phone, locale } };
    }
    case "FWuser":
      // A click-through guest gives nothing but the device: one guest per MAC, as the portal records it.
      return { ...base, identity: `mac:${mac}`, profile: { locale } };
    case "Muser":
      return { ...base, identity: email, profile: { email, locale } };
    default:
      return { ...base, identity: email, profile: { full_name, email, gender, locale } };
  }
}

/** A moment of the local day drawn from the venue's hourly profile. */
function momentOfDay(rng: Rng, site: DemoSite, day: string): Date {
  const hour = weightedIndex(rng, site.hourly);
  return zonedInstant(day, hour * 3600 + intBetween(rng, 0, 3599), site.timezone);
}

/**
 * Every event of the period, in time order. `localDays[s]` lists the period's days in site s's own
 * time zone; nothing happens after `until`.
 */
export function planActivity(rng: Rng, sites: DemoSite[], localDays: string[][], until: Date): DemoEvent[] {
  const events: DemoEvent[] = [];
  const pools: GuestSeed[][] = sites.map(() => []);
  const onlineDevices = sites.map((site) => site.devices.flatMap((d, i) => (d.heard === "online" ? [i] : [])));
  let guestNumber = 0;
  const dayCount = localDays[0]?.length ?? 0;
  for (let i = 0; i < dayCount; i++) {
    const growth = 0.85 + (0.3 * i) / Math.max(1, dayCount - 1);
    sites.forEach((site, s) => {
      const day = localDays[s][i];
      const pool = pools[s];
      const earlier = pool.length; // guests first seen before today
      const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
      const logins = around(rng, site.dailyLogins * site.weekly[weekday] * growth * (0.85 + 0.3 * rng()));
      const methods = Object.entries(site.campaign.methods).map(([value, weight]) => ({ value: value as LoginMethod, weight }));
      for (let n = 0; n < logins; n++) {
        let guest: GuestSeed;
        if (earlier > 0 && rng() < RETURN_RATE) {
          // Squaring favours the earliest guests: the regulars.
          guest = pool[Math.floor(earlier * rng() ** 2)];
        } else {
          guest = makeGuest(rng, site, weightedPick(rng, methods), guestNumber++);
          pool.push(guest);
        }
        const at = momentOfDay(rng, site, day);
        const device = onlineDevices[s].length ? pick(rng, onlineDevices[s]) : -1;
        if (at <= until) events.push({ at, site: s, device, kind: "login", guest });
      }
      const reconnects = earlier > 0 ? around(rng, logins * RECONNECT_RATE) : 0;
      for (let n = 0; n < reconnects; n++) {
        const guest = pool[earlier - 1 - Math.floor(rng() * Math.min(earlier, RECONNECT_POOL))];
        const at = momentOfDay(rng, site, day);
        if (at <= until) events.push({ at, site: s, device: -1, kind: "visit", guest });
      }
    });
  }
  // Stable: events at the same second keep their planned order.
  return events.sort((a, b) => a.at.getTime() - b.at.getTime());
}
