/** Cisco Meraki: set in the Meraki dashboard (the service cannot reach it): the splash page, walled garden and RADIUS. */
import type { DeviceConfigWriter } from "../device-config.js";
import { guideFile, listOrNone, radiusLines } from "../guide-config.js";

export const merakiConfig: DeviceConfigWriter = (input) => {
  const g = input.grant;
  return guideFile(
    input,
    "guestwifi-meraki.txt",
    [
      {
        title: "Meraki dashboard > Wireless > Access control > (SSID)",
        lines: [
          "Splash page: Click-through, or Sign-on with my RADIUS server",
          "Controller disconnection behavior: Restricted",
          "Walled garden: enabled",
          `Walled garden ranges: ${listOrNone(g.walledGarden)}`,
        ],
      },
      { title: "Wireless > Splash page", lines: [`Custom splash URL: ${input.location.portalUrl}`] },
      { title: "Sign-on with my RADIUS server: RADIUS servers", lines: radiusLines(input) },
      ...(g.filterRole
        ? [
            {
              title: `Network-wide > Group policies > Add: ${g.filterRole} (RADIUS sends it as Filter-Id when content_filter is on; Access control > RADIUS attribute specifying group policy name: Filter-Id)`,
              lines: [`Layer 3 firewall: allow UDP 53 to ${g.dns.join(", ")}; deny UDP 53 and TCP 853 to Any`],
            },
          ]
        : []),
    ],
    [
      "Enter the values above in the Meraki dashboard: Meraki's walled garden, splash page and RADIUS servers are set there, not by the service.",
      "Register each AP's MAC in the console with a Meraki model.",
    ],
    [
      "walled garden: set in the Meraki dashboard (Walled garden ranges), listed above",
      `dns_server_1/2 and content_filter: Meraki assigns DNS from the network's DHCP settings (Security & SD-WAN > DHCP)${g.dns.length > 0 ? `; use ${g.dns.join(", ")}` : ""}`,
      ...(g.blocked.length > 0 ? [`blacklist: add ${g.blocked.join(", ")} to the SSID's Firewall & traffic shaping layer 7 rules in the dashboard`] : []),
    ],
  );
};
