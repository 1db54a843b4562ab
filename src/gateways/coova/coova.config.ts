/**
 * A CoovaChilli configuration (`/etc/chilli/config`, the HS_* variables its init script sources; the
 * names as in CoovaChilli's own conf/defaults.in and conf/functions.in, github.com/coova/coova-chilli): the RADIUS servers and secret, the NAS-Identifier
 * (the registered MAC), the portal as UAM server, the walled garden (HS_UAMALLOW for addresses and
 * names, HS_UAMDOMAINS for whole domains), the guests' DNS (HS_DNS1, HS_DNS2), and CoA.
 */
import type { DeviceConfigWriter } from "../device-config.js";
import { suffixHosts } from "../device-config.js";

function shValue(s: string): string {
  return `'${s.replace(/'/g, `'\\''`).replace(/[\r\n]/g, " ")}'`;
}

export const coovaConfig: DeviceConfigWriter = (input) => {
  const { grant, radius } = input;
  const exact = grant.walledGarden.filter((h) => !h.startsWith("*."));
  const domains = suffixHosts(grant.walledGarden.filter((h) => h.startsWith("*.")));
  const lines = [
    `# guestwifi: ${input.device.name} (${input.device.mac}) at ${input.location.name}`,
    "# /etc/chilli/config: read by CoovaChilli's init script; restart chilli after a change.",
    `HS_RADIUS=${shValue(radius.host)}`,
    `HS_RADIUS2=${shValue(radius.host)}`,
    `HS_RADSECRET=${shValue(input.device.secret)}`,
    `HS_RADAUTH=${radius.authPort}`,
    `HS_RADACCT=${radius.acctPort}`,
    `HS_NASID=${shValue(input.device.mac)}`,
    `HS_COAPORT=${radius.coaPort}`,
    `HS_UAMSERVER=${shValue(new URL(input.location.portalUrl).hostname)}`,
    `HS_UAMFORMAT=${shValue(input.location.portalUrl)}`,
    `HS_UAMHOMEPAGE=${shValue(input.location.portalUrl)}`,
    `HS_UAMALLOW=${shValue(exact.join(","))}`,
    `HS_UAMDOMAINS=${shValue(domains.join(","))}`,
  ];
  if (grant.dns[0]) lines.push(`HS_DNS1=${shValue(grant.dns[0])}`);
  if (grant.dns[1]) lines.push(`HS_DNS2=${shValue(grant.dns[1])}`);
  // The service's COOVA_UAM_SECRET (HS_UAMSECRET) stays on the gateway, out of a file fetched again and again.
  lines.push("[ -f /etc/chilli/config.local ] && . /etc/chilli/config.local", "");
  const notCarried = [];
  if (grant.blocked.length > 0) notCarried.push("blacklist: CoovaChilli has no list of hosts blocked after login (use the DNS servers or the upstream firewall)");
  return {
    filename: "chilli-config",
    content_type: "text/plain; charset=utf-8",
    content: lines.join("\n"),
    steps: [
      "Copy the file to /etc/chilli/config (it sets HS_UAMSERVER and HS_UAMFORMAT to the portal, HS_RADIUS, HS_RADSECRET, HS_NASID, the walled garden and DNS); when the service sets COOVA_UAM_SECRET, put HS_UAMSECRET='<that secret>' in /etc/chilli/config.local (the file sources it). Then restart chilli.",
      `Keep it current with cron: */${input.pollMinutes} * * * * wget -q -O /etc/chilli/config '${input.fetchUrl}' && /etc/init.d/chilli restart`,
    ],
    not_carried: notCarried,
  };
};
