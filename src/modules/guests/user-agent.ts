/** User agent -> browser, OS, device type and brand, as guest profiles report them. */
import { UAParser } from "ua-parser-js";

export interface ParsedAgent {
  browser_name: string;
  os_name: string;
  os_version: string;
  device_type: string;
  device_brand: string;
}

export function parseUserAgent(ua: string): ParsedAgent {
  const r = new UAParser(ua.slice(0, 1024)).getResult();
  return {
    browser_name: r.browser.name ?? "",
    os_name: r.os.name ?? "",
    os_version: r.os.version ?? "",
    // ua-parser leaves desktops without a type.
    device_type: r.device.type ?? (ua ? "desktop" : ""),
    device_brand: r.device.vendor ?? (r.os.name === "Mac OS" || r.os.name === "iOS" ? "Apple" : ""),
  };
}
