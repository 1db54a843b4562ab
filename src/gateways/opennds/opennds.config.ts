/**
 * A `uci batch` file for OpenWrt with openNDS (9 or later) at FAS level 3: the portal as its remote
 * FAS (fasremotefqdn, faspath, faskey = the device's secret), the walled garden
 * (walledgarden_fqdn_list: the portal, the login methods' hosts, the whitelist), the blocked hosts
 * (blocklist_fqdn_list, applied to authenticated clients), and the guests' DNS as dnsmasq's
 * upstream servers (openNDS sends every client's DNS to the router). Option names as in openNDS's
 * own /etc/config/opennds (linux_openwrt/opennds/files/etc/config/opennds) and docs/source/walledgarden.rst.
 * Apply with `uci batch < file`; a cron line fetches and applies it again.
 */
import type { DeviceConfigWriter } from "../device-config.js";
import { suffixHosts } from "../device-config.js";

/** A uci value in single quotes (a quote inside closes, escapes and reopens, as in sh). */
export function uciValue(s: string): string {
  return `'${s.replace(/'/g, `'\\''`).replace(/[\r\n]/g, " ")}'`;
}

export const openNdsConfig: DeviceConfigWriter = (input) => {
  const { grant } = input;
  const portal = new URL(input.location.portalUrl);
  const https = portal.protocol === "https:";
  const lines: string[] = [
    `# guestwifi: ${input.device.name} (${input.device.mac}) at ${input.location.name}`,
    "# Apply with: uci batch < guestwifi.uci && /etc/init.d/opennds restart",
    "set opennds.setup=opennds",
    "set opennds.setup.enabled='1'",
    `set opennds.setup.gatewayname=${uciValue(`${input.location.name} ${input.device.mac}`.replace(/'/g, "&#39;"))}`,
    `set opennds.setup.fasport=${uciValue(portal.port || (https ? "443" : "80"))}`,
    `set opennds.setup.fasremotefqdn=${uciValue(portal.hostname)}`,
    `set opennds.setup.faspath=${uciValue(`${portal.pathname}/authmon`)}`,
    "set opennds.setup.fas_secure_enabled='3'",
    `set opennds.setup.faskey=${uciValue(input.device.secret)}`,
    "delete opennds.setup.walledgarden_fqdn_list",
  ];
  const garden = suffixHosts(grant.walledGarden);
  if (garden.length > 0) lines.push(`add_list opennds.setup.walledgarden_fqdn_list=${uciValue(garden.join(" "))}`);
  lines.push("delete opennds.setup.blocklist_fqdn_list");
  const blocked = suffixHosts(grant.blocked);
  if (blocked.length > 0) lines.push(`add_list opennds.setup.blocklist_fqdn_list=${uciValue(blocked.join(" "))}`);
  lines.push("delete dhcp.@dnsmasq[0].server");
  if (grant.dns.length > 0) {
    // dnsmasq asks only the grant's servers (the filtering resolvers when the filter is on).
    lines.push("set dhcp.@dnsmasq[0].noresolv='1'");
    for (const ip of grant.dns) lines.push(`add_list dhcp.@dnsmasq[0].server=${uciValue(ip)}`);
  } else {
    lines.push("delete dhcp.@dnsmasq[0].noresolv");
  }
  lines.push("commit opennds", "commit dhcp", "");
  const cron = `*/${input.pollMinutes} * * * * wget -q -O /tmp/guestwifi.uci '${input.fetchUrl}' && uci batch < /tmp/guestwifi.uci && /etc/init.d/dnsmasq reload && /etc/init.d/opennds restart`;
  return {
    filename: "guestwifi.uci",
    content_type: "text/plain; charset=utf-8",
    content: lines.join("\n"),
    steps: [
      "opkg update && opkg install opennds php8-cli php8-mod-openssl ca-bundle ipset dnsmasq-full (remove dnsmasq first: opkg remove dnsmasq)",
      "Copy guestwifi.uci to the router, then: uci batch < guestwifi.uci && /etc/init.d/dnsmasq reload && /etc/init.d/opennds restart",
      `Keep it current (System > Scheduled Tasks in LuCI, or crontab -e): ${cron}`,
    ],
    not_carried: grant.filter ? [] : [],
  };
};
