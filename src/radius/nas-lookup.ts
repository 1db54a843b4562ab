/**
 * Finding the access point (NAS) behind a packet, with its location and that location's options,
 * and marking it heard from. Every packet needs these and they rarely change, so they are kept
 * until the catalogue changes (a device, location or options written by any instance: see
 * changeGeneration): a new secret, a new assignment or new options apply from the next packet.
 * While changes cannot be followed (PostgreSQL's listener is reconnecting) an answer is kept for
 * NAS_CACHE_TTL_MS only, as before there was a listener. Kept for a few seconds always, a venue's
 * hundred access points were looked up again every few seconds, all at once (they were first
 * looked up together): on PostgreSQL two round trips each, which held RADIUS's connections while
 * the packets behind them waited.
 */
import { LRUCache } from "lru-cache";
import { type SubmitWrite, createBatchedWriter } from "../db/batched-writer.js";
import { changeGeneration } from "../db/database.js";
import { nowDatetime } from "../db/time.js";
import type { Ctx } from "../modules/context.js";
import type { DeviceRow } from "../modules/devices/devices.repository.js";
import { findDeviceByMac } from "../modules/devices/devices.service.js";
import type { LocationOptionsRow, LocationRow } from "../modules/locations/locations.repository.js";
import { findLiveLocation, loadOptions } from "../modules/locations/locations.service.js";

export interface NasContext {
  device: DeviceRow;
  /** The device's location when it is assigned to a live (not deleted) one. */
  location: LocationRow | undefined;
  options: LocationOptionsRow | undefined;
}

/** How long an answer is kept while catalogue changes cannot be followed (changeGeneration undefined). */
export const NAS_CACHE_TTL_MS = 5_000;
/** Unknown MACs are remembered too (a flood of them must not become a flood of queries); bounded. */
const NAS_CACHE_MAX = 10_000;
/** live_status needs minute precision over a 10-minute window; one write per device per interval is plenty. */
const HEARD_WRITE_INTERVAL_MS = 30_000;

export class NasLookup {
  /** `generation`: the catalogue's when the look-up began; `until`: the bound used when there is none. */
  private readonly cache = new LRUCache<string, { context: NasContext | undefined; generation: string | undefined; until: number }>({ max: NAS_CACHE_MAX });
  private readonly lastHeardWrite = new Map<number, number>();
  private readonly loading = new Map<string, Promise<NasContext | undefined>>();
  /**
   * The marks of one poll round (and of those that come while one is written) in one statement:
   * every access point's first packet after a start marks it, and again each interval after, so a
   * venue's access points are marked at about the same moments. As a hundred single-row commits
   * they held every RADIUS connection on PostgreSQL while packets waited behind them.
   */
  private readonly writeHeard: SubmitWrite<number, void>;

  constructor(private readonly ctx: Ctx) {
    this.writeHeard = createBatchedWriter(ctx.db, async (ids: number[]) => {
      await ctx.repos.devices.markHeardMany(ctx.db, [...new Set(ids)], nowDatetime());
      return ids.map(() => undefined);
    });
  }

  /**
   * The first registered device among the candidate MACs (canonical form). Synchronous when the
   * answer is cached (nearly every packet): no promise to create and wait for.
   */
  find(macs: string[], now = Date.now()): NasContext | undefined | Promise<NasContext | undefined> {
    for (let i = 0; i < macs.length; i++) {
      const found = this.byMac(macs[i], now);
      if (found instanceof Promise) return this.findAfterMiss(macs, i, found, now);
      if (found) return found;
    }
    return undefined;
  }

  /** The rest of `find` once candidate `i` had to be loaded. */
  private async findAfterMiss(macs: string[], i: number, loading: Promise<NasContext | undefined>, now: number): Promise<NasContext | undefined> {
    const found = await loading;
    if (found) return found;
    for (let j = i + 1; j < macs.length; j++) {
      const context = await this.byMac(macs[j], now);
      if (context) return context;
    }
    return undefined;
  }

  /** One look-up per MAC at a time: when an entry expires, the packets in flight share its reload. */
  private byMac(mac: string, now: number): NasContext | undefined | Promise<NasContext | undefined> {
    const hit = this.cache.get(mac);
    if (hit) {
      const generation = changeGeneration(this.ctx.db, true);
      if (generation === undefined ? hit.until > now : hit.generation === generation) return hit.context;
    }
    let loading = this.loading.get(mac);
    if (!loading) {
      loading = this.load(mac, now).finally(() => this.loading.delete(mac));
      this.loading.set(mac, loading);
    }
    return loading;
  }

  private async load(mac: string, now: number): Promise<NasContext | undefined> {
    // Taken before reading: a change committed while the rows are read makes the answer stale at once.
    const generation = changeGeneration(this.ctx.db, true);
    const device = await findDeviceByMac(this.ctx, mac);
    let context: NasContext | undefined;
    if (device) {
      const location = device.location_id === null ? undefined : await findLiveLocation(this.ctx, device.location_id);
      context = { device, location, options: location ? await loadOptions(this.ctx, location.id) : undefined };
    }
    this.cache.set(mac, { context, generation, until: now + NAS_CACHE_TTL_MS });
    return context;
  }

  /** Called only after the packet proved it knows the device's secret; a promise only when it writes. */
  markHeard(device: DeviceRow, now = Date.now()): Promise<void> | undefined {
    const last = this.lastHeardWrite.get(device.id);
    if (last !== undefined && now - last < HEARD_WRITE_INTERVAL_MS) return undefined;
    this.lastHeardWrite.set(device.id, now);
    return this.writeHeard(device.id);
  }
}
