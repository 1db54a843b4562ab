/**
 * Letting a guest in through a controller (UniFi, Omada, a RUCKUS northbound interface): the location's controller with its
 * credentials opened, the location's options turned into the controller's units, the call, and
 * the controller's sessions kept per app (cookies, CSRF tokens) so that each login does not log in
 * again. A controller that is down, refuses or answers oddly gets the guest a page to retry, and
 * the log gets the controller's answer.
 */
import type { FastifyBaseLogger } from "fastify";
import { LRUCache } from "lru-cache";
import type { Config } from "../config.js";
import { secretBoxKey } from "../db/secret-box.js";
import type { Ctx } from "../modules/context.js";
import type { OutboundRule } from "../outbound-address.js";
import type { ControllerType } from "../modules/controllers/controllers.schemas.js";
import { type ControllerAccess, controllerOfLocation, controllerRule } from "../modules/controllers/controllers.service.js";
import type { LocationRow } from "../modules/locations/locations.repository.js";
import { ControllerError, faultMessage } from "../gateways/controller-http.js";
import { nowDatetime } from "../db/time.js";
import type { RuckusNbiState } from "../gateways/gateway-types.js";
import { isEncrypted, nbiDecrypt, nbiLogin, nbiMatches } from "../gateways/ruckus/ruckus-nbi.js";
import { type OmadaSession, newOmadaSession } from "../gateways/omada/omada.js";
import { type UnifiSession, newUnifiSession } from "../gateways/unifi/unifi.js";
import { portalErrors } from "./portal-errors.js";

/** bytes/s (the grant's rates) -> kbit/s (UniFi), rounded up; 0 stays 0 (no limit). */
export function kbpsOf(bytesPerSecond: number): number {
  return bytesPerSecond > 0 ? Math.ceil((bytesPerSecond * 8) / 1000) : 0;
}

/** bytes -> MB (UniFi's data quota, 2^20 bytes), rounded up; 0 stays 0 (no quota). */
export function megabytesOf(bytes: number): number {
  return bytes > 0 ? Math.ceil(bytes / 1_048_576) : 0;
}

/** What a family's controller call gets: the location's controller, the bound on each request, and the controller's kept sessions. */
export interface ControllerCall {
  access: ControllerAccess;
  timeoutMs: number;
  /** Where the controller may be reached (the outbound address rule). */
  rule: OutboundRule;
  unifi: UnifiSession;
  omada: OmadaSession;
}

interface Sessions {
  version: string;
  unifi: UnifiSession;
  omada: OmadaSession;
}

export class ControllerGrants {
  private readonly sessions = new LRUCache<number, Sessions>({ max: 1000 });

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly config: Pick<Config, "secretBoxKey" | "controllerTimeoutMs" | "controllerAllowPrivate">,
  ) {}

  /** Bound and address rule of every call to a controller. */
  private get link(): { timeoutMs: number; rule: OutboundRule } {
    return { timeoutMs: this.config.controllerTimeoutMs, rule: controllerRule(this.config) };
  }

  private sessionsOf(id: number, version: string): Sessions {
    const found = this.sessions.get(id);
    if (found && found.version === version) return found;
    const fresh = { version, unifi: newUnifiSession(), omada: newOmadaSession() };
    this.sessions.set(id, fresh);
    return fresh;
  }

  /** The location's controller of `type`; throws the portal's error page (and logs why) when it has none. */
  private async controllerOf(ctx: Ctx, location: LocationRow, type: ControllerType): Promise<ControllerAccess> {
    const key = await secretBoxKey(ctx.db, this.config.secretBoxKey);
    const access = await controllerOfLocation(ctx, key, location.id);
    if (!access || access.type !== type) {
      const where = { location_id: location.id, controller_id: access?.id, family: type };
      this.log.warn(where, access
          ? "portal: the location's controller is not of the guest's gateway family"
          : "portal: the location has no controller, or its credentials cannot be opened (was SECRET_BOX_KEY changed?)");
      throw portalErrors.controllerMissing();
    }
    return access;
  }

  /**
   * Lets a guest in at `location` through its controller of `family`, with the family's own call
   * (src/gateways/unifi/, src/gateways/omada/), and answers `seconds`; throws the portal's retry
   * page when that fails, and logs the controller's answer.
   */
  async letIn(ctx: Ctx, location: LocationRow, family: "unifi" | "omada", seconds: number, call: (c: ControllerCall) => Promise<void>): Promise<number> {
    const access = await this.controllerOf(ctx, location, family);
    const where = { location_id: location.id, controller_id: access.id, family };
    const sessions = this.sessionsOf(access.id, access.version);
    try {
      await call({ access, timeoutMs: this.config.controllerTimeoutMs, rule: controllerRule(this.config), unifi: sessions.unifi, omada: sessions.omada });
    } catch (err) {
      if (!(err instanceof ControllerError)) throw err;
      this.log.warn({ ...where, fault: err.fault, reason: err.message, answer: err.answer }, "portal: the controller did not let the guest in");
      await this.remember(ctx, access, err.fault, `A guest's grant failed: ${faultMessage(err)}`);
      throw portalErrors.controllerFailed();
    }
    this.log.info({ ...where, seconds }, "portal: guest let in by the controller");
    await this.remember(ctx, access, "ok", "A guest was let in.");
    return seconds;
  }

  /**
   * Keeps the controller's last success or failure (its console page shows it): a failure, or a
   * change back to success, at once; a success that follows a success at most every five minutes.
   */
  private async remember(ctx: Ctx, access: ControllerAccess, status: string, message: string): Promise<void> {
    const last = access.lastCheckedAt ? Date.parse(`${access.lastCheckedAt.replace(" ", "T")}Z`) : 0;
    if (status === "ok" && access.lastStatus === "ok" && Date.now() - last < 300_000) return;
    try {
      await ctx.repos.controllers.recordStatus(ctx.db, access.id, { last_status: status, last_message: message, last_checked_at: nowDatetime() });
    } catch (err) {
      this.log.warn({ controller_id: access.id, err }, "portal: the controller's status could not be recorded");
    }
  }

  /** Decrypted values of RUCKUS redirects: a guest reloading the page is not another call. */
  private readonly decrypted = new LRUCache<string, string>({ max: 10_000, ttl: 3_600_000 });

  /**
   * The guest's MAC (`client_mac`) or address (`uip`) behind a RUCKUS redirect: as it came when
   * plain, else decrypted by the location's controller. "" when that fails: the login still works
   * (the controller gets the encrypted values back), only what needs the value (returning guests,
   * the login's record, the RFC 8908 API) goes without.
   */
  async ruckusDecrypt(ctx: Ctx, location: LocationRow, gw: RuckusNbiState, what: "mac" | "ip", known?: ControllerAccess): Promise<string> {
    const value = what === "mac" ? gw.ueMac : gw.ueIp;
    if (!isEncrypted(value)) return what === "ip" ? value : "";
    let access: ControllerAccess;
    try {
      // The login has looked the controller up already: not again.
      access = known ?? (await this.controllerOf(ctx, location, "ruckus"));
    } catch {
      return "";
    }
    const cacheKey = `${access.id}\u0000${access.version}\u0000${value}`;
    const hit = this.decrypted.get(cacheKey);
    if (hit) return hit;
    const where = { location_id: location.id, controller_id: access.id, family: gw.kind, nbi: gw.nbi };
    if (what === "mac" && !nbiMatches(access, gw.nbi)) {
      this.log.info(where, "portal: the redirect's nbiIP is not the host of the location's controller; the controller is called");
    }
    try {
      const plain = await nbiDecrypt({ access, ...this.link }, value, what);
      this.decrypted.set(cacheKey, plain);
      return plain;
    } catch (err) {
      if (!(err instanceof ControllerError)) throw err;
      this.log.warn({ ...where, fault: err.fault, reason: err.message, answer: err.answer }, `portal: the controller did not decrypt the guest's ${what === "mac" ? "MAC" : "address"}`);
      return "";
    }
  }

  /** The location's RUCKUS controller, looked up before the login is recorded: a location without one records nothing. */
  ruckusController(ctx: Ctx, location: LocationRow): Promise<ControllerAccess> {
    return this.controllerOf(ctx, location, "ruckus");
  }

  /**
   * Logs the guest on at a RUCKUS controller with the one-time credential (the controller asks our
   * RADIUS server); throws the portal's retry page when the controller does not let the guest in.
   */
  async ruckusLogin(access: ControllerAccess, location: LocationRow, gw: RuckusNbiState, credential: { username: string; password: string }): Promise<void> {
    const where = { location_id: location.id, controller_id: access.id, family: gw.kind, nbi: gw.nbi };
    try {
      const code = await nbiLogin({ access, ...this.link }, gw, credential);
      this.log.info({ ...where, code }, "portal: guest logged on by the controller");
    } catch (err) {
      if (!(err instanceof ControllerError)) throw err;
      this.log.warn({ ...where, fault: err.fault, reason: err.message, answer: err.answer }, "portal: the controller did not let the guest in");
      throw portalErrors.controllerFailed();
    }
  }
}
