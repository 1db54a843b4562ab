/**
 * Each gateway family's Access-Accept, as radclient (FreeRADIUS's dictionaries) decodes it: an
 * access point of that family's model asks as that vendor's gateway asks (its NAS attributes, PAP
 * or CHAP, its MAC formats), for a portal credential and for a returning guest, at a location with
 * every limit on (a remaining cap above 4 GiB), one with small limits, and one without any.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { DEVICE_FAMILIES, type FamilyId, type RadiusDialect } from "../../src/modules/devices/device-families.js";
import { DEVICE_MODELS } from "../../src/modules/devices/device-models.js";
import { issueCredential } from "../../src/radius/portal-credentials.js";
import { VENDORS } from "../../src/radius/reply-attributes.js";
import { DIALECTS } from "../helpers/db.js";
import { radclient } from "./radclient.js";
import { type RadiusEnv, createRadiusEnv, dashed, makeDevice, makeGuest, makeLocation, randomMac } from "./radius-fixtures.js";

const INTERIM = "120";
const GIB = 2 ** 30;

/** Every limit on: 2,048 kbit/s up, 10 Mbit/s down, a cap of which 5e9 octets (above 4 GiB) remain after 1e9 used. */
const FULL = { session_time_limit: 3600, max_bandwidth_up: 256_000, max_bandwidth_down: 1_250_000, daily_bandwidth_cap: 6_000_000_000 };
const FULL_USED = 1_000_000_000;
/** Small limits: upload only, a cap under 4 GiB (no gigawords). */
const SMALL = { session_time_limit: 600, max_bandwidth_up: 125_000, max_bandwidth_down: 0, daily_bandwidth_cap: GIB };
const SMALL_USED = 24;

type Expect = Record<string, string>;

/** What radclient prints for a location's options in each dialect (Message-Authenticator aside). */
function expected(dialect: RadiusDialect, which: "full" | "small" | "none"): Expect {
  if (which === "none") return { "Acct-Interim-Interval": INTERIM };
  const full = which === "full";
  const out: Expect = { "Session-Timeout": full ? "3600" : "600", "Acct-Interim-Interval": INTERIM };
  const remaining = full ? 5_000_000_000 : GIB - SMALL_USED;
  const low = String(remaining % 2 ** 32);
  if (dialect === "mikrotik") {
    out["Mikrotik-Rate-Limit"] = full ? "2048k/10M" : "1M/0";
    out["Mikrotik-Total-Limit"] = low;
    if (full) out["Mikrotik-Total-Limit-Gigawords"] = "1";
    return out;
  }
  out["WISPr-Bandwidth-Max-Up"] = full ? "2048000" : "1000000";
  if (full) out["WISPr-Bandwidth-Max-Down"] = "10000000";
  if (dialect === "chillispot") {
    out["ChilliSpot-Max-Total-Octets"] = low;
    // FreeRADIUS's dictionary.chillispot lacks CoovaChilli's Gigawords attributes (ours has them).
    if (full) out["Attr-26.14559.23"] = "0x00000001";
  }
  if (dialect === "cambium") {
    out["Cambium-Traffic-Quota-Limit-Total"] = low;
    if (full) out["Cambium-Traffic-Quota-Limit-Total-Gigwords"] = "1";
  }
  return out;
}

interface Nas {
  mac: string;
  secret: string;
}

/** How each family's gateway words an Access-Request: its identifiers, MAC formats and own attributes. */
interface VendorStyle {
  chap: boolean;
  /** The request's attributes besides User-Name and the password. */
  lines(ap: Nas, client: string): string[];
  /** The client MAC as this gateway writes it (User-Name of a MAC authentication). */
  macUser(client: string): string;
}

const plain = (mac: string) => mac.replace(/:/g, "").toLowerCase();
const colon = (mac: string) => mac.toUpperCase();

const STYLES: Record<FamilyId, VendorStyle> = {
  coova: {
    chap: false,
    lines: (ap, client) => [
      `Called-Station-Id = "${dashed(ap.mac)}"`,
      `NAS-Identifier = "${dashed(ap.mac)}"`,
      `Calling-Station-Id = "${dashed(client)}"`,
      "NAS-Port-Type = Wireless-802.11",
      "Service-Type = Login-User",
      "Framed-IP-Address = 10.1.0.7",
      'Acct-Session-Id = "6554a1c400000001"',
      'WISPr-Logoff-URL = "http://10.1.0.1:3990/logoff"',
      'ChilliSpot-Version = "1.6"',
    ],
    macUser: dashed,
  },
  openwrt: {
    chap: false,
    lines: (ap, client) => [
      `Called-Station-Id = "${dashed(ap.mac)}"`,
      'NAS-Identifier = "glinet-lobby"',
      `Calling-Station-Id = "${dashed(client)}"`,
      "NAS-Port-Type = Wireless-802.11",
      "Framed-IP-Address = 192.168.182.9",
      'WISPr-Location-Name = "Lobby"',
    ],
    macUser: dashed,
  },
  meraki: {
    // Meraki's cloud asks, PAP, with the AP's MAC and the SSID in Called-Station-Id.
    chap: false,
    lines: (ap, client) => [
      `Called-Station-Id = "${dashed(ap.mac)}:Guest WiFi"`,
      `Calling-Station-Id = "${dashed(client)}"`,
      'NAS-Identifier = "Meraki Cloud Controller"',
      "NAS-Port-Type = Wireless-802.11",
      "Service-Type = Login-User",
      "Framed-IP-Address = 10.164.3.8",
      'Meraki-Device-Name = "Lobby MR46"',
      'Meraki-Network-Name = "Cafe - wireless"',
      'Meraki-Ap-Name = "Lobby MR46"',
      'Meraki-Ap-Tags = " guest lobby "',
    ],
    macUser: dashed,
  },
  unifi: {
    chap: false,
    lines: (ap, client) => [
      `Called-Station-Id = "${dashed(ap.mac).toLowerCase()}:Guest"`,
      `Calling-Station-Id = "${dashed(client).toLowerCase()}"`,
      'NAS-Identifier = "unifi-controller"',
      "NAS-Port-Type = Wireless-802.11",
      "Framed-IP-Address = 10.0.5.23",
    ],
    macUser: (m) => plain(m),
  },
  omada: {
    chap: true,
    lines: (ap, client) => [
      `Called-Station-Id = "${dashed(ap.mac)}:Guest"`,
      `Calling-Station-Id = "${dashed(client)}"`,
      `NAS-Identifier = "${dashed(ap.mac)}"`,
      "NAS-Port-Type = Wireless-802.11",
      "Service-Type = Login-User",
      "Framed-IP-Address = 192.168.0.120",
    ],
    macUser: dashed,
  },
  mikrotik: {
    // RouterOS HotSpot: CHAP with the login page's challenge; Called-Station-Id is the HotSpot
    // server's name, so the router names itself by its system identity (NAS-Identifier) = its MAC.
    chap: true,
    lines: (ap, client) => [
      "CHAP-Challenge = 0x3c1d7e0a9b4f22d58e61a0c7f3b29e44",
      'Called-Station-Id = "hotspot1"',
      `NAS-Identifier = "${colon(ap.mac)}"`,
      `Calling-Station-Id = "${colon(client)}"`,
      "NAS-Port-Type = Wireless-802.11",
      'NAS-Port-Id = "bridge-guest"',
      "NAS-Port = 2159017987",
      "Service-Type = Login-User",
      "Framed-IP-Address = 10.5.50.20",
      "Mikrotik-Host-IP = 10.5.50.20",
      'Acct-Session-Id = "80b00003"',
    ],
    macUser: colon,
  },
  aruba: {
    // ArubaOS / Instant captive portal: PAP; MACs without delimiters, the ESSID and AP in Aruba VSAs.
    chap: false,
    lines: (ap, client) => [
      `Called-Station-Id = "${plain(ap.mac)}"`,
      `Calling-Station-Id = "${plain(client)}"`,
      'NAS-Identifier = "instant-lobby"',
      "NAS-Port-Type = Wireless-802.11",
      "Service-Type = Login-User",
      "Framed-IP-Address = 172.31.98.14",
      'Aruba-Essid-Name = "Guest"',
      'Aruba-Location-Id = "ap505-lobby"',
      'Aruba-AP-Group = "default"',
      'Aruba-Device-Type = "iPhone"',
    ],
    macUser: plain,
  },
  ruckus: {
    chap: true,
    lines: (ap, client) => [
      `Called-Station-Id = "${dashed(ap.mac)}:Guest"`,
      `Calling-Station-Id = "${dashed(client)}"`,
      'NAS-Identifier = "ZoneDirector"',
      "NAS-Port-Type = Wireless-802.11",
      "Framed-IP-Address = 192.168.40.77",
      'Ruckus-SSID = "Guest"',
      "Ruckus-Wlan-Id = 3",
      'Ruckus-Location = "Lobby"',
    ],
    macUser: (m) => plain(m),
  },
  cambium: {
    chap: false,
    lines: (ap, client) => [
      `Called-Station-Id = "${dashed(ap.mac)}:Guest"`,
      `Calling-Station-Id = "${dashed(client)}"`,
      'NAS-Identifier = "XV2-2-lobby"',
      "NAS-Port-Type = Wireless-802.11",
      "Service-Type = Login-User",
      "Framed-IP-Address = 10.10.1.31",
    ],
    macUser: dashed,
  },
};

/** Attribute numbers of a FreeRADIUS dictionary file, by name, with its vendor id. */
function freeradiusDictionary(file: string): { vendor: number; attrs: Map<string, number> } {
  const text = readFileSync(file, "utf8");
  const vendor = Number(/^VENDOR\s+\S+\s+(\d+)/m.exec(text)?.[1]);
  const attrs = new Map<string, number>();
  for (const m of text.matchAll(/^ATTRIBUTE\s+(\S+)\s+(\d+)\s+(\S+)/gm)) attrs.set(m[1], Number(m[2]));
  return { vendor, attrs };
}

describe("gateway families", () => {
  it("gives every model of the catalogue a family", () => {
    for (const m of DEVICE_MODELS) assert.ok(DEVICE_FAMILIES[m.family], `${m.id} has a known family`);
    for (const family of Object.keys(DEVICE_FAMILIES)) {
      assert.ok(
        DEVICE_MODELS.some((m) => m.family === family),
        `${family} has a model`,
      );
    }
  });

  it("uses FreeRADIUS's vendor ids, attribute numbers and types", () => {
    const checks: [string, { id: number } & Record<string, number>, Record<string, string>][] = [
      ["/usr/share/freeradius/dictionary.wispr", VENDORS.WISPr, { BandwidthMaxUp: "WISPr-Bandwidth-Max-Up", BandwidthMaxDown: "WISPr-Bandwidth-Max-Down" }],
      [
        "/usr/share/freeradius/dictionary.mikrotik",
        VENDORS.Mikrotik,
        { RateLimit: "Mikrotik-Rate-Limit", TotalLimit: "Mikrotik-Total-Limit", TotalLimitGigawords: "Mikrotik-Total-Limit-Gigawords", AddressList: "Mikrotik-Address-List" },
      ],
      ["/usr/share/freeradius/dictionary.aruba", VENDORS.Aruba, { UserRole: "Aruba-User-Role" }],
      [
        "/usr/share/freeradius/dictionary.cambium",
        VENDORS.Cambium,
        { TrafficQuotaLimitTotal: "Cambium-Traffic-Quota-Limit-Total", TrafficQuotaLimitTotalGigwords: "Cambium-Traffic-Quota-Limit-Total-Gigwords" },
      ],
      ["/usr/share/freeradius/dictionary.chillispot", VENDORS.ChilliSpot, { MaxTotalOctets: "ChilliSpot-Max-Total-Octets" }],
      ["src/radius/dictionaries/dictionary.chillispot", VENDORS.ChilliSpot, { MaxTotalOctets: "ChilliSpot-Max-Total-Octets", MaxTotalGigawords: "ChilliSpot-Max-Total-Gigawords" }],
    ];
    for (const [file, vendor, names] of checks) {
      const dict = freeradiusDictionary(file);
      assert.equal(vendor.id, dict.vendor, file);
      for (const [key, name] of Object.entries(names)) assert.equal(vendor[key], dict.attrs.get(name), `${name} in ${file}`);
    }
    const mikrotik = readFileSync("/usr/share/freeradius/dictionary.mikrotik", "utf8");
    assert.match(mikrotik, /^ATTRIBUTE\s+Mikrotik-Rate-Limit\s+8\s+string/m, "the rate limit is a string");
  });
});

for (const dialect of DIALECTS) {
  describe(`RADIUS attributes per gateway family (${dialect})`, () => {
    let t: RadiusEnv;
    const locations: Record<"full" | "small" | "none", number> = { full: 0, small: 0, none: 0 };
    before(async () => {
      t = await createRadiusEnv(dialect, { RADIUS_INTERIM_INTERVAL: INTERIM, RADIUS_RETURNING_GUEST_DAYS: "30" });
      locations.full = await makeLocation(t, FULL);
      locations.small = await makeLocation(t, SMALL);
      locations.none = await makeLocation(t, {});
    });
    after(async () => t.close());

    const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "America/Chicago" }).format(new Date());

    /** A guest of `which` location with that location's usage for today. */
    const guestAt = async (which: keyof typeof locations, client: string) => {
      const locationId = locations[which];
      const guestId = await makeGuest(t, locationId, client);
      const used = which === "full" ? FULL_USED : which === "small" ? SMALL_USED : 0;
      if (used > 0) await t.db.insertInto("daily_usage").values({ guest_id: guestId, location_id: locationId, day: today(), octets: used }).execute();
      return { guestId, locationId };
    };

    const replyAttributes = (attributes: Record<string, string>) => {
      const { "Message-Authenticator": ma, ...rest } = attributes;
      assert.match(ma ?? "", /^0x[0-9a-f]{32}$/, "Message-Authenticator in every Access-Accept");
      return rest;
    };

    for (const [familyId, family] of Object.entries(DEVICE_FAMILIES) as [FamilyId, (typeof DEVICE_FAMILIES)[FamilyId]][]) {
      const style = STYLES[familyId];
      const model = DEVICE_MODELS.find((m) => m.family === familyId)!;

      it(`${family.name}: ${model.id} gets the ${family.radius} attributes (${style.chap ? "CHAP" : "PAP"}, then MAC)`, async () => {
        for (const which of ["full", "small", "none"] as const) {
          const ap = await makeDevice(t, locations[which], t.accountId, model.id);
          const client = randomMac();
          const { guestId, locationId } = await guestAt(which, client);
          const cred = await issueCredential(t.deps, { guestId, locationId, deviceId: ap.id, clientMac: client, ttlSeconds: 60 });
          const password = style.chap ? `CHAP-Password = "${cred.password}"` : `User-Password = "${cred.password}"`;
          const r = await radclient(t.radius.authPort, "auth", ap.secret, [`User-Name = "${cred.username}"`, password, ...style.lines(ap, client), "Message-Authenticator = 0x00"]);
          assert.equal(r.code, "Access-Accept", `${which}: ${r.output}`);
          assert.deepEqual(replyAttributes(r.attributes), expected(family.radius, which), `${familyId}, ${which} location, credential`);

          // The same guest back later: a MAC authentication as this gateway words it.
          const user = style.macUser(client);
          const mac = await radclient(t.radius.authPort, "auth", ap.secret, [`User-Name = "${user}"`, `User-Password = "${user}"`, ...style.lines(ap, client), "Message-Authenticator = 0x00"]);
          assert.equal(mac.code, "Access-Accept", `${which} by MAC: ${mac.output}`);
          assert.deepEqual(replyAttributes(mac.attributes), expected(family.radius, which), `${familyId}, ${which} location, returning guest`);
        }
      });
    }

    it("content filter on: the filter role as each family takes it (Mikrotik-Address-List, Aruba-User-Role, Filter-Id), nothing for the others", async () => {
      const locationId = await makeLocation(t, {});
      await t.db.updateTable("location_options").set({ content_filter: 1 }).where("location_id", "=", locationId).execute();
      const role: Partial<Record<FamilyId, [string, string]>> = {
        mikrotik: ["Mikrotik-Address-List", "guestwifi-filtered"],
        aruba: ["Aruba-User-Role", "guestwifi-filtered"],
        meraki: ["Filter-Id", "guestwifi-filtered"],
      };
      for (const familyId of Object.keys(DEVICE_FAMILIES) as FamilyId[]) {
        const model = DEVICE_MODELS.find((m) => m.family === familyId)!;
        const style = STYLES[familyId];
        const ap = await makeDevice(t, locationId, t.accountId, model.id);
        const client = randomMac();
        const guestId = await makeGuest(t, locationId, client);
        const cred = await issueCredential(t.deps, { guestId, locationId, deviceId: ap.id, clientMac: client, ttlSeconds: 60 });
        const password = style.chap ? `CHAP-Password = "${cred.password}"` : `User-Password = "${cred.password}"`;
        const r = await radclient(t.radius.authPort, "auth", ap.secret, [`User-Name = "${cred.username}"`, password, ...style.lines(ap, client), "Message-Authenticator = 0x00"]);
        assert.equal(r.code, "Access-Accept", r.output);
        const got = Object.entries(r.attributes).filter(([k]) => ["Mikrotik-Address-List", "Aruba-User-Role", "Filter-Id"].includes(k));
        assert.deepEqual(got, role[familyId] ? [role[familyId]] : [], familyId);
      }
    });

    it("answers a model outside the catalogue as before: WISPr and ChilliSpot", async () => {
      const ap = await makeDevice(t, locations.full);
      const client = randomMac();
      const { guestId, locationId } = await guestAt("full", client);
      const cred = await issueCredential(t.deps, { guestId, locationId, deviceId: ap.id, clientMac: client, ttlSeconds: 60 });
      const r = await radclient(t.radius.authPort, "auth", ap.secret, [`User-Name = "${cred.username}"`, `User-Password = "${cred.password}"`, ...STYLES.coova.lines(ap, client), "Message-Authenticator = 0x00"]);
      assert.equal(r.code, "Access-Accept", r.output);
      assert.deepEqual(replyAttributes(r.attributes), expected("chillispot", "full"));
    });

    it("follows a location's new options and a device's new model within the cache's lifetime", async () => {
      const locationId = await makeLocation(t, {});
      const ap = await makeDevice(t, locationId, t.accountId, "coovachilli");
      const ask = async () => {
        const client = randomMac();
        const guestId = await makeGuest(t, locationId, client);
        const cred = await issueCredential(t.deps, { guestId, locationId, deviceId: ap.id, clientMac: client, ttlSeconds: 60 });
        const r = await radclient(t.radius.authPort, "auth", ap.secret, [`User-Name = "${cred.username}"`, `User-Password = "${cred.password}"`, ...STYLES.mikrotik.lines(ap, client).slice(1), "Message-Authenticator = 0x00"]);
        assert.equal(r.code, "Access-Accept", r.output);
        return replyAttributes(r.attributes);
      };
      assert.deepEqual(await ask(), { "Acct-Interim-Interval": INTERIM });
      await t.db.updateTable("location_options").set({ max_bandwidth_up: 125_000, max_bandwidth_down: 125_000 }).where("location_id", "=", locationId).execute();
      await t.db.updateTable("devices").set({ model_id: "mikrotik-cap-ax" }).where("id", "=", ap.id).execute();
      // The caches live 5 s; the bound is generous because a loaded machine slows each radclient.
      const deadline = Date.now() + 20_000;
      let now = await ask();
      while (now["Mikrotik-Rate-Limit"] === undefined && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 500));
        now = await ask();
      }
      assert.deepEqual(now, { "Acct-Interim-Interval": INTERIM, "Mikrotik-Rate-Limit": "1M/1M" });
    });
  });
}
