/**
 * The configuration of a family set on its vendor's screens or controller (UniFi, Omada, Meraki,
 * Aruba, RUCKUS, Cambium): a text file of the values to enter, in the order of the vendor's screens,
 * with the walled garden, DNS and blocked hosts the grant policy gives the location, and what the
 * family cannot take from the service.
 */
import type { DeviceConfigFile, DeviceConfigInput } from "./device-config.js";

export interface GuideSection {
  title: string;
  lines: string[];
}

/** A guide as a text file: sections of `name: value` lines, the steps, and what is not carried. */
export function guideFile(input: DeviceConfigInput, filename: string, sections: GuideSection[], steps: string[], notCarried: string[]): Omit<DeviceConfigFile, "warnings" | "family"> {
  const out = [`# guestwifi: ${input.device.name} (${input.device.mac}) at ${input.location.name}`, ""];
  for (const s of sections) out.push(`[${s.title}]`, ...s.lines, "");
  out.push("[Steps]", ...steps.map((s, i) => `${i + 1}. ${s}`), "");
  if (notCarried.length > 0) out.push("[Not carried by this family]", ...notCarried.map((n) => `- ${n}`), "");
  return { filename, content_type: "text/plain; charset=utf-8", content: out.join("\n"), steps, not_carried: notCarried };
}

/** The RADIUS server lines every RADIUS family enters. */
export function radiusLines(input: DeviceConfigInput): string[] {
  const r = input.radius;
  return [
    `RADIUS server: ${r.host}`,
    `Authentication port: ${r.authPort}`,
    `Accounting port: ${r.acctPort}`,
    `Shared secret: ${input.device.secret}`,
    `NAS-Identifier / Called-Station-Id: ${input.device.mac}`,
    `Interim accounting: every ${r.interimInterval} seconds`,
    `Dynamic authorization (CoA) port: ${r.coaPort}`,
  ];
}

export function listOrNone(hosts: readonly string[]): string {
  return hosts.length > 0 ? hosts.join(", ") : "(none)";
}
