/** UniFi: what the operator enters in UniFi Network (the service grants each guest through the controller API). */
import type { DeviceConfigWriter } from "../device-config.js";
import { guideFile, listOrNone } from "../guide-config.js";

export const unifiConfig: DeviceConfigWriter = (input) => {
  const portal = new URL(input.publicUrl);
  const g = input.grant;
  return guideFile(
    input,
    "guestwifi-unifi.txt",
    [
      {
        title: "UniFi Network > Settings > WiFi > (guest network) > Hotspot Portal",
        lines: [
          "Authentication: External Portal Server",
          `External portal server: ${portal.hostname} (UniFi sends guests to http://<this address>/guest/s/<site>/ on port 80)`,
          `Pre-Authorization Allowances: ${listOrNone(g.walledGarden)}`,
        ],
      },
      {
        title: "What the service sets through the controller at each login (authorize-guest)",
        lines: [
          `Minutes: ${Math.ceil(g.grantSeconds / 60)}`,
          `Up / down: ${g.upBytesPerSecond * 8} / ${g.downBytesPerSecond * 8} bit/s (0: none)`,
          `Data quota: ${g.remainingBytes ?? 0} bytes (0: none)`,
        ],
      },
      { title: "Guest network DNS (Settings > Networks > guest network > DHCP Name Server)", lines: [`DNS servers: ${listOrNone(g.dns)}`] },
    ],
    [
      "Add the controller in the console (Integrations > Controllers: URL, a local admin, the site) and assign it to the location; use Test connection.",
      "Enter the Hotspot Portal values above for the guest network, with Pre-Authorization Allowances.",
      "Set the guest network's DHCP name servers to the DNS servers above.",
    ],
    [
      ...(g.blocked.length > 0 ? [`blacklist: UniFi blocks guests' hosts with Traffic Rules in the Network application; add ${g.blocked.join(", ")} there`] : []),
      "walled garden and DNS: entered on the controller's screens; the service does not change the controller's settings",
    ],
  );
};
