/** What "the service serves" means in the fault tests: HTTP through the database, and RADIUS. */
import { randomBytes } from "node:crypto";
import { openPeer, rawExchange } from "../radius/radclient.js";
import { countsAt } from "../radius/radius-counts.js";
import { accountingRequestBytes } from "../radius/raw-packets.js";
import type { ServiceProcess } from "../helpers/service-process.js";

export interface Probe {
  status: number;
  body: any;
  ms: number;
}

/** One HTTP request, never longer than `timeoutMs` on the client side (status 0: no answer in time). */
export async function probe(url: string, init: RequestInit = {}, timeoutMs = 15_000): Promise<Probe> {
  const t0 = Date.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: res.status, body, ms: Date.now() - t0 };
  } catch {
    return { status: 0, body: undefined, ms: Date.now() - t0 };
  }
}

export function apiCall(svc: ServiceProcess, path: string, params: Record<string, string> = {}, timeoutMs?: number): Promise<Probe> {
  const q = new URLSearchParams(params).toString();
  return probe(`${svc.httpUrl}/api/${path}${q ? `?${q}` : ""}`, { headers: { identifier: svc.identifier } }, timeoutMs);
}

/** A POST with a JSON body. */
export function apiPost(svc: ServiceProcess, path: string, params: Record<string, string>, timeoutMs?: number): Promise<Probe> {
  const headers = { identifier: svc.identifier, "content-type": "application/json" };
  return probe(`${svc.httpUrl}/api/${path}`, { method: "POST", headers, body: JSON.stringify(params) }, timeoutMs);
}

/** Registers an access point through the API; its MAC and RADIUS secret. */
export async function registerDevice(svc: ServiceProcess): Promise<{ mac: string; secret: string }> {
  const mac = Array.from(randomBytes(6), (b, i) => (i === 0 ? b & 0xfe : b).toString(16).padStart(2, "0")).join(":").toUpperCase();
  const res = await apiCall(svc, "create-device", { device_name: "Fault AP", model_id: "openwrt-generic", mac_address: mac });
  if (res.status !== 200) throw new Error(`create-device: ${res.status} ${JSON.stringify(res.body)}`);
  const secret = res.body.data?.radius_secret ?? res.body.radius_secret;
  if (typeof secret !== "string") throw new Error(`no radius_secret in ${JSON.stringify(res.body)}`);
  return { mac, secret };
}

let sessionSeq = 0;

/** An Accounting-Request with a new session; true when it was answered within `waitMs`. */
export async function radiusAnswers(svc: ServiceProcess, ap: { mac: string; secret: string }, waitMs = 3000): Promise<boolean> {
  const packet = accountingRequestBytes(ap.secret, sessionSeq % 256, [
    ["Acct-Status-Type", "Start"],
    ["Acct-Session-Id", `fault-${process.pid}-${++sessionSeq}`],
    ["NAS-Identifier", ap.mac.replaceAll(":", "-")],
  ]);
  const answers = await rawExchange(svc.acctPort, [packet], 1, waitMs);
  return answers.length === 1 && answers[0][0] === 5;
}

/**
 * An Accounting-Request with a new session that the service fails (its database away), proven by
 * its own count of failed requests rather than by a silence: a request counted as failed is never
 * answered. Returns the answers that came meanwhile (none expected).
 */
export async function radiusFails(svc: ServiceProcess, ap: { mac: string; secret: string }, limitMs = 30_000): Promise<Buffer[]> {
  const counts = countsAt(`${svc.httpUrl}/metrics`);
  const before = (await counts("accounting")).error;
  const packet = accountingRequestBytes(ap.secret, sessionSeq % 256, [
    ["Acct-Status-Type", "Start"],
    ["Acct-Session-Id", `fault-${process.pid}-${++sessionSeq}`],
    ["NAS-Identifier", ap.mac.replaceAll(":", "-")],
  ]);
  const peer = await openPeer();
  try {
    // Answers arriving later still land in this array.
    const answers = await peer.exchange(svc.acctPort, [packet], 0, 0);
    const deadline = Date.now() + limitMs;
    while ((await counts("accounting")).error === before) {
      if (Date.now() > deadline) throw new Error(`the RADIUS request was not counted as failed within ${limitMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return answers;
  } finally {
    await peer.close();
  }
}

/** HTTP (health and an API read) and RADIUS all answer successfully. */
export async function serves(svc: ServiceProcess, ap: { mac: string; secret: string }): Promise<boolean> {
  const [health, list, radius] = await Promise.all([
    probe(`${svc.httpUrl}/healthz`, {}, 5000),
    apiCall(svc, "location-list", {}, 5000),
    radiusAnswers(svc, ap, 2000),
  ]);
  return health.status === 200 && list.status === 200 && radius;
}

/** Milliseconds until `serves` holds, polling; throws after `limitMs`. */
export async function timeUntilServing(svc: ServiceProcess, ap: { mac: string; secret: string }, limitMs: number): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    if (svc.exited() !== undefined) throw new Error(`the service exited (${svc.exited()}):\n${svc.output().slice(-4000)}`);
    if (await serves(svc, ap)) return Date.now() - t0;
    if (Date.now() - t0 > limitMs) throw new Error(`not serving ${limitMs} ms after the database came back:\n${svc.output().slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
