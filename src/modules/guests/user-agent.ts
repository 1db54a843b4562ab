/** User agent -> browser, OS, device type and brand, as guest profiles report them. */
import { LRUCache } from "lru-cache";
import { UAParser } from "ua-parser-js";

export interface ParsedAgent {
  browser_name: string;
  os_name: string;
  os_version: string;
  device_type: string;
  device_brand: string;
}

/** A memo of a pure function: guests' phones repeat the same few thousand agents, and parsing one costs far more than a login's other CPU work. */
const parsed = new LRUCache<string, Readonly<ParsedAgent>>({ max: 5_000 });

export function parseUserAgent(ua: string): ParsedAgent {
  let hit = parsed.get(ua);
  if (!hit) {
    hit = Object.freeze(parseFresh(ua));
    parsed.set(ua, hit);
  }
  return { ...hit };
}

function parseFresh(ua: string): ParsedAgent {
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
