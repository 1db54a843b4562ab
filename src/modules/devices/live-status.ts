import { fromDbDatetime } from "../../db/time.js";

export const ONLINE_WINDOW_MS = 10 * 60 * 1000;

/** never_connected until first heard from, online while heard from in the last 10 minutes. */
export function liveStatus(lastHeardAt: string | null, now = Date.now()): "online" | "offline" | "never_connected" {
  if (!lastHeardAt) return "never_connected";
  return now - fromDbDatetime(lastHeardAt).getTime() <= ONLINE_WINDOW_MS ? "online" : "offline";
}
