/** Who is signed in and what the service is configured with, shared by every page. */

export interface User {
  email: string;
  role: "owner" | "sub-user";
  readonly: boolean;
  account_id: number;
  csrf_token: string;
}

export interface Settings {
  public_url: string;
  /** Why PUBLIC_URL will not work for gateways (localhost, loopback); "" when it is fine. */
  public_url_warning: string;
  /** Where gateways send RADIUS: RADIUS_PUBLIC_HOST, else the host of PUBLIC_URL. */
  radius: { host: string; auth_port: number; acct_port: number };
  radsec: { enabled: boolean; port: number };
  model_families: Record<string, string>;
  providers: Record<"facebook" | "twitter" | "instagram" | "linkedin" | "sms", boolean>;
  controller_types: string[];
  webhook_events: string[];
  /** Outgoing e-mail is configured (SMTP_URL). */
  mail: boolean;
}

export interface Session {
  user: User;
  settings: Settings;
}

export interface Location {
  id: number;
  name: string;
  address: string;
  city: string;
  zip: string;
  state: string;
  country: string;
  phone_number: string;
  url: string;
  website: string;
  time_zone: string;
  default_campaign_id: number;
  location: { latitude: number | null; longitude: number | null };
}

/** Navigation inside the console without reloading the page. */
export function navigate(path: string): void {
  if (location.pathname + location.search !== path) history.pushState(null, "", path);
  window.dispatchEvent(new Event("console:navigate"));
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
