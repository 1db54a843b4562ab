/**
 * Calls to a location's controller that are not a guest's grant: Test connection (reached, TLS,
 * credentials, site), and the walled garden (grant-policy.ts) pushed as the controller's
 * pre-authorization allowances: UniFi's Hotspot Portal allowances, Omada's Pre-Authentication
 * Access. RUCKUS's northbound portal interface has no call for its walled garden (it is set on the
 * controller's hotspot service), so nothing is pushed there. Each call records its outcome on the
 * controller (last_status, last_message, last_checked_at), which its console page shows.
 *
 * Pushes run after the change that needs them has committed (a location's options, its
 * controller, the controller's record) and when a controller family's configuration is fetched;
 * pushes to one controller run one after the other (each reads, then writes, the site's list).
 */
import type { Config } from "../config.js";
import type { DB } from "../db/database.js";
import { secretBoxKey } from "../db/secret-box.js";
import { nowDatetime } from "../db/time.js";
import { afterCommit } from "../db/transaction.js";
import type { ControllerType } from "../modules/controllers/controllers.schemas.js";
import { type ControllerAccess, controllerAccessOf, controllerRule } from "../modules/controllers/controllers.service.js";
import type { ControllerCheck, ControllerSync, Ctx } from "../modules/context.js";
import { findLiveLocation } from "../modules/locations/locations.service.js";
import type { OutboundRule } from "../outbound-address.js";
import { ControllerError, faultMessage } from "./controller-http.js";
import { locationGrant } from "./device-configs.js";
import { newOmadaSession, omadaCheck, omadaSetAllowances } from "./omada/omada.js";
import { nbiCheck } from "./ruckus/ruckus-nbi.js";
import { newUnifiSession, unifiCheck, unifiSetAllowances } from "./unifi/unifi.js";

interface Link {
  access: ControllerAccess;
  timeoutMs: number;
  rule: OutboundRule;
}

/** Each controller family's Test connection and, where the service pushes them, its allowances. */
const FAMILIES: {
  readonly [T in ControllerType]: {
    check(l: Link): Promise<string>;
    setAllowances?(l: Link, hosts: readonly string[], previous: readonly string[]): Promise<void>;
  };
} = {
  unifi: {
    check: (l) => unifiCheck({ ...l, session: newUnifiSession() }),
    setAllowances: (l, hosts, previous) => unifiSetAllowances({ ...l, session: newUnifiSession() }, hosts, previous),
  },
  omada: {
    check: (l) => omadaCheck({ ...l, session: newOmadaSession() }),
    setAllowances: (l, hosts, previous) => omadaSetAllowances({ ...l, session: newOmadaSession() }, hosts, previous),
  },
  ruckus: { check: (l) => nbiCheck(l) },
};

function parseHosts(json: string): string[] {
  try {
    const v = JSON.parse(json);
    return Array.isArray(v) ? v.filter((h): h is string => typeof h === "string") : [];
  } catch {
    return [];
  }
}

/** `db`: the app's database, which work after a commit runs on (the transaction is closed by then). */
export function createControllerSync(db: DB): ControllerSync {
  /** The push (or test) running per controller: the next waits for it. */
  const running = new Map<number, Promise<unknown>>();

  function serialized<T>(id: number, fn: () => Promise<T>): Promise<T> {
    const before = running.get(id) ?? Promise.resolve();
    const next = before.catch(() => undefined).then(fn);
    running.set(id, next);
    void next.finally(() => {
      if (running.get(id) === next) running.delete(id);
    }).catch(() => undefined);
    return next;
  }

  async function linkOf(ctx: Ctx, id: number, config: Readonly<Config>): Promise<Link | ControllerCheck> {
    const row = await ctx.repos.controllers.findById(ctx.db, id);
    const key = await secretBoxKey(ctx.db, config.secretBoxKey);
    const access = row ? controllerAccessOf(key, row) : undefined;
    if (!access) {
      return { ok: false, fault: "refused", message: "Wrong credentials: the stored credentials cannot be opened (was SECRET_BOX_KEY changed?); enter them again.", checked_at: nowDatetime() };
    }
    return { access, timeoutMs: config.controllerTimeoutMs, rule: controllerRule(config) };
  }

  async function record(ctx: Ctx, id: number, check: ControllerCheck, pushed?: readonly string[]): Promise<ControllerCheck> {
    await ctx.repos.controllers.recordStatus(ctx.db, id, {
      last_status: check.ok ? "ok" : check.fault,
      last_message: check.message,
      last_checked_at: check.checked_at,
      ...(pushed ? { pushed_allowances: JSON.stringify(pushed) } : {}),
    });
    return check;
  }

  async function run(fn: () => Promise<string>): Promise<ControllerCheck> {
    try {
      return { ok: true, fault: "ok", message: `${await fn()}.`, checked_at: nowDatetime() };
    } catch (err) {
      if (!(err instanceof ControllerError)) throw err;
      return { ok: false, fault: err.fault, message: faultMessage(err), checked_at: nowDatetime() };
    }
  }

  /** The walled garden of every live location the controller serves, each host once. */
  async function allowancesOf(ctx: Ctx, id: number, config: Readonly<Config>): Promise<string[]> {
    const hosts: string[] = [];
    for (const locationId of await ctx.repos.controllers.locationIdsOf(ctx.db, id)) {
      const location = await findLiveLocation(ctx, locationId);
      if (!location) continue;
      for (const h of (await locationGrant(ctx, location, config)).walledGarden) if (!hosts.includes(h)) hosts.push(h);
    }
    return hosts;
  }

  const sync: ControllerSync = {
    test: (ctx, id, config) =>
      serialized(id, async () => {
        const link = await linkOf(ctx, id, config);
        if (!("access" in link)) return record(ctx, id, link);
        return record(ctx, id, await run(() => FAMILIES[link.access.type].check(link)));
      }),

    push: (ctx, id, config) =>
      serialized(id, async () => {
        const link = await linkOf(ctx, id, config);
        if (!("access" in link)) return record(ctx, id, link);
        const family = FAMILIES[link.access.type];
        if (!family.setAllowances) return undefined;
        const row = await ctx.repos.controllers.findById(ctx.db, id);
        const previous = parseHosts(row?.pushed_allowances ?? "[]");
        const hosts = await allowancesOf(ctx, id, config);
        const check = await run(async () => {
          await family.setAllowances?.(link, hosts, previous);
          return `pre-authorization allowances set: ${hosts.join(", ") || "none"}`;
        });
        return record(ctx, id, check, check.ok ? hosts : undefined);
      }),

    pushAfterCommit(ctx, locationId, config) {
      afterCommit(ctx.db, async () => {
        const base: Ctx = { ...ctx, db };
        const row = await base.repos.controllers.findForLocation(base.db, locationId);
        if (row) await sync.push(base, row.id, config);
      });
    },
  };
  return sync;
}
