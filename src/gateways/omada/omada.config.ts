/** TP-Link Omada: what the operator enters in the Omada controller (the service grants each guest through its API). */
import type { DeviceConfigWriter } from "../device-config.js";
import { guideFile, listOrNone } from "../guide-config.js";

export const omadaConfig: DeviceConfigWriter = (input) => {
  const g = input.grant;
  return guideFile(
    input,
    "guestwifi-omada.txt",
    [
      {
        title: "Omada Controller > Settings > Authentication > Portal > Add",
        lines: [
          "Authentication Type: External Portal Server",
          `Custom Portal Server: ${input.location.portalUrl}`,
          "Landing Page: the original URL",
        ],
      },
      { title: "Portal > Access Control > Pre-Authentication Access (URL entries)", lines: [`URLs: ${listOrNone(g.walledGarden)}`] },
      { title: "What the service sets through the controller at each login (extPortal/auth)", lines: [`Time: ${g.grantSeconds} seconds`] },
      { title: "Settings > Wired Networks > LAN > (guest network) > DHCP Server", lines: [`Primary / secondary DNS: ${listOrNone(g.dns)}`] },
    ],
    [
      "Add the controller in the console (Integrations > Controllers: URL, a hotspot operator, the site) and assign it to the location; use Test connection.",
      "Create the portal above for the guest SSID and add each Pre-Authentication Access URL.",
      "Set the guest network's DHCP DNS servers to the values above.",
    ],
    [
      "rates and daily cap: Omada's external portal API takes a time only; set rate limits in the SSID's Rate Limit profile",
      ...(g.blocked.length > 0 ? [`blacklist: add ${g.blocked.join(", ")} as URL Filtering rules (Settings > Network Security > URL Filtering)`] : []),
    ],
  );
};
