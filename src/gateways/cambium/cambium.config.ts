/** Cambium cnPilot / cnMaestro: the guest access portal, RADIUS and walled garden. */
import type { DeviceConfigWriter } from "../device-config.js";
import { guideFile, listOrNone, radiusLines } from "../guide-config.js";

export const cambiumConfig: DeviceConfigWriter = (input) => {
  const g = input.grant;
  return guideFile(
    input,
    "guestwifi-cambium.txt",
    [
      {
        title: "cnMaestro > Configure > WLAN > Guest Access",
        lines: ["Portal Mode: External Hotspot", `External Portal URL: ${input.location.portalUrl}`, `Whitelist: ${listOrNone(g.walledGarden)}`],
      },
      { title: "WLAN > AAA Servers", lines: radiusLines(input) },
    ],
    ["Enter the values above in cnMaestro (or the AP's own UI: Configure > WLAN > Guest Access)."],
    [
      ...(g.dns.length > 0 ? [`dns_server_1/2: set in the guest network's DHCP server (${g.dns.join(", ")})`] : []),
      ...(g.blocked.length > 0 ? [`blacklist: add ${g.blocked.join(", ")} as an ACL on the WLAN`] : []),
    ],
  );
};
