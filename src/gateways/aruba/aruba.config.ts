/** HPE Aruba Networking (Instant / ArubaOS): the captive portal profile, RADIUS server, walled garden and a filter role. */
import type { DeviceConfigWriter } from "../device-config.js";
import { guideFile, listOrNone, radiusLines } from "../guide-config.js";

export const arubaConfig: DeviceConfigWriter = (input) => {
  const g = input.grant;
  return guideFile(
    input,
    "guestwifi-aruba.txt",
    [
      {
        title: "Instant WebUI > Configuration > Networks > (guest SSID) > Security",
        lines: ["Splash page type: External", `Captive portal profile > URL: ${input.location.portalUrl}`, "Authentication server: the RADIUS server below"],
      },
      { title: "Configuration > Security > Authentication Servers > New (RADIUS)", lines: radiusLines(input) },
      { title: "Configuration > Security > Walled Garden > Whitelist", lines: [`Domains: ${listOrNone(g.walledGarden)}`] },
      { title: "Configuration > Security > Walled Garden > Blacklist", lines: [`Domains: ${listOrNone(g.blocked)}`] },
      ...(g.filterRole
        ? [
            {
              title: `Configuration > Security > Roles > New: ${g.filterRole} (RADIUS assigns it as Aruba-User-Role when content_filter is on)`,
              lines: [`Access rules: allow DNS (udp 53) to ${g.dns.join(", ")} only; deny udp 53 and tcp 853 to any other; then allow all`],
            },
          ]
        : []),
    ],
    ["Enter the values above in the Instant WebUI (or the ArubaOS controller's equivalent profiles).", "Add the AP's MAC to the portal URL as apmac when a controller (not Instant) sends guests."],
    g.dns.length > 0 ? [`${g.filter ? "content_filter" : "dns_server_1/2"}: set the guest VLAN's DHCP scope's DNS servers to ${g.dns.join(", ")}`] : [],
  );
};
