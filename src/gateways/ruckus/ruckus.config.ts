/** RUCKUS (ZoneDirector, Unleashed, SmartZone, RUCKUS One): the hotspot (WISPr) service, RADIUS, walled garden. */
import type { DeviceConfigWriter } from "../device-config.js";
import { guideFile, listOrNone, radiusLines } from "../guide-config.js";

export const ruckusConfig: DeviceConfigWriter = (input) => {
  const g = input.grant;
  return guideFile(
    input,
    "guestwifi-ruckus.txt",
    [
      {
        title: "ZoneDirector / Unleashed: Services & Profiles > Hotspot Services; SmartZone: Services & Profiles > Hotspots & Portals > Hotspot (WISPr)",
        lines: [`Login page (Logon URL): ${input.location.portalUrl}`, `Walled Garden: ${listOrNone(g.walledGarden)}`, "Authentication and accounting server: the RADIUS server below"],
      },
      { title: "Services & Profiles > AAA Servers", lines: radiusLines(input) },
    ],
    [
      "Enter the values above. SmartZone and RUCKUS One: enable the Northbound Portal Interface and add the controller in the console (Integrations > Controllers).",
    ],
    [
      ...(g.dns.length > 0 ? [`dns_server_1/2: set in the WLAN's DHCP/DNS server (${g.dns.join(", ")})`] : []),
      ...(g.blocked.length > 0 ? [`blacklist: add ${g.blocked.join(", ")} as a URL Filtering or L3 access control policy on the WLAN`] : []),
    ],
  );
};
