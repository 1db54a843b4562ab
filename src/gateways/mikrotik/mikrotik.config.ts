/**
 * A RouterOS 7 script (.rsc) for a MikroTik HotSpot: the RADIUS client with the device's secret,
 * CoA, the HotSpot profile, login.html fetched from the service, the walled garden (the portal, the
 * login methods' hosts, the whitelist), the guests' DNS (dst-nat of their port 53 to the grant's
 * servers, hotspot=auth), blocked hosts (an address list and a forward rule), and a scheduler that
 * fetches and imports this script again. Everything it adds carries the comment "guestwifi" and is
 * removed first, so importing it again replaces rather than duplicates.
 * Commands as in MikroTik's manual: /radius, /radius incoming, /ip hotspot profile,
 * /ip hotspot walled-garden, /ip firewall nat|filter|address-list, /system scheduler, /tool fetch.
 */
import type { DeviceConfigWriter } from "../device-config.js";
import { routerOsRate } from "../../radius/reply-attributes.js";

const TAG = "guestwifi";

/** A RouterOS string literal: backslash, quote and $ escaped. */
export function rosString(s: string): string {
  return `"${s.replace(/[\\"$]/g, (c) => `\\${c}`).replace(/[\r\n]/g, " ")}"`;
}

export const mikrotikConfig: DeviceConfigWriter = (input) => {
  const { device, grant, radius } = input;
  const lines: string[] = [];
  const add = (...l: string[]) => lines.push(...l);
  const address = isIpLiteral(radius.host) ? radius.host : `[:resolve ${rosString(radius.host)}]`;
  add(
    `# guestwifi: ${device.name} (${device.mac}) at ${input.location.name}`,
    `# Portal: ${input.location.portalUrl}`,
    "# Import with: /import file-name=guestwifi.rsc (it replaces what an earlier import added).",
    "",
    `/radius remove [find comment=${TAG}]`,
    `/radius add service=hotspot address=${address} secret=${rosString(device.secret)} authentication-port=${radius.authPort} accounting-port=${radius.acctPort} comment=${TAG}`,
    `/radius incoming set accept=yes port=${radius.coaPort}`,
    `/system identity set name=${rosString(device.mac)}`,
    `/ip hotspot profile set [find default=yes] use-radius=yes login-by=http-chap,http-pap,mac mac-auth-mode=mac-as-username radius-interim-update=${radius.interimInterval}s html-directory=hotspot dns-name=""`,
    `/tool fetch url=${rosString(`${input.fetchBase}/login.html`)} dst-path=hotspot/login.html`,
    "",
    `/ip hotspot walled-garden remove [find comment=${TAG}]`,
  );
  for (const host of grant.walledGarden) add(`/ip hotspot walled-garden add dst-host=${rosString(host)} comment=${TAG}`);
  add("", `/ip firewall nat remove [find comment=${TAG}]`);
  const to = grant.dns.filter((ip) => !ip.includes(":"))[0];
  if (to && grant.filterRole) {
    // The content filter as a role: RADIUS's Mikrotik-Address-List puts each guest's address in this
    // list for the session; the list's DNS goes to the filtering resolvers, DNS over TLS is refused.
    add(`# Content filter: RADIUS adds each guest to the address list ${grant.filterRole} (Mikrotik-Address-List); their DNS goes to the filtering resolvers.`);
    for (const proto of ["udp", "tcp"]) {
      add(`/ip firewall nat add chain=dstnat src-address-list=${grant.filterRole} protocol=${proto} dst-port=53 action=dst-nat to-addresses=${to} comment=${TAG}`);
    }
  } else if (to) {
    // Guests' DNS queries go to the location's servers.
    for (const proto of ["udp", "tcp"]) {
      add(`/ip firewall nat add chain=dstnat hotspot=auth protocol=${proto} dst-port=53 action=dst-nat to-addresses=${to} comment=${TAG}`);
    }
  }
  add("", `/ip firewall filter remove [find comment=${TAG}]`, `/ip firewall address-list remove [find list=${TAG}-blocked]`);
  if (to && grant.filterRole) {
    add(`/ip firewall filter add chain=forward src-address-list=${grant.filterRole} protocol=tcp dst-port=853 action=reject reject-with=tcp-reset comment=${TAG}`);
  }
  const exact = grant.blocked.filter((h) => !h.startsWith("*."));
  for (const host of exact) add(`/ip firewall address-list add list=${TAG}-blocked address=${rosString(host)}`);
  if (exact.length > 0) add(`/ip firewall filter add chain=forward hotspot=auth dst-address-list=${TAG}-blocked action=reject reject-with=icmp-network-unreachable comment=${TAG}`);
  if (grant.upBytesPerSecond > 0 || grant.downBytesPerSecond > 0) {
    add("", `# Rates come with each login as Mikrotik-Rate-Limit ${routerOsRate(grant.upBytesPerSecond * 8)}/${routerOsRate(grant.downBytesPerSecond * 8)} (rx/tx).`);
  }
  add(
    "",
    `/system scheduler remove [find name=${TAG}-config]`,
    `/system scheduler add name=${TAG}-config interval=${input.pollMinutes}m on-event=${rosString(
      `/tool fetch url="${input.fetchUrl}" dst-path=guestwifi.rsc; :delay 2s; /import file-name=guestwifi.rsc`,
    )} comment=${TAG}`,
    "",
  );
  const notCarried: string[] = [];
  const wild = grant.blocked.filter((h) => h.startsWith("*."));
  if (wild.length > 0) notCarried.push(`blacklist: RouterOS address lists take names, not wildcards (${wild.join(", ")} left out)`);
  if (grant.dns.some((ip) => ip.includes(":"))) notCarried.push("dns_server_1/2: IPv6 resolvers are not redirected (HotSpot guests are IPv4)");
  if (grant.dns.length > 1) notCarried.push("dns_server_2: the dst-nat sends every query to the first IPv4 server");
  return {
    filename: "guestwifi.rsc",
    content_type: "text/plain; charset=utf-8",
    content: lines.join("\n"),
    steps: [
      "Upload guestwifi.rsc in Winbox (Files) or with scp, then run /import file-name=guestwifi.rsc in the Terminal.",
      "IP > Hotspot > Servers: run the HotSpot Setup on the guests' interface if the router has no HotSpot server yet.",
      `The router fetches this script again every ${input.pollMinutes} minutes (System > Scheduler, guestwifi-config), so a change of the location's options reaches it within that time.`,
    ],
    not_carried: notCarried,
  };
};

function isIpLiteral(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(":");
}
