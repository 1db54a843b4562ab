/** Who is signed in and what the service is configured with, shared by every page; navigation. */
import { useLocation } from "preact-iso/router";

// The shapes every page shares: the server's own schemas (types.ts).
export type { Location, Session, Settings, User } from "./types";

let route: ((url: string) => void) | undefined;

/** Navigation inside the console without reloading the page: the router's own (preact-iso). */
export function navigate(path: string): void {
  if (route) route(path);
  else location.assign(path);
}

/** Gives navigate() the router's route(), for handlers outside any component's render: the layout calls it. */
export function useNavigate(): void {
  route = useLocation().route;
}

export function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

export function daysAgo(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - n);
  return d.toISOString().slice(0, 10);
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KB", "MB", "GB", "TB", "PB"];
  let v = n;
  let i = -1;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

export function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return h > 0 ? `${h} h ${m} min` : `${m} min`;
}
