/**
 * Who may get online: the rules of an Access-Request once the packet is known to come from a
 * registered access point. Two ways in: a one-time portal credential, or a returning guest's MAC.
 */
import type { Config } from "../config.js";
import type { SubmitWrite } from "../db/batched-writer.js";
import { recordVisit } from "../modules/guests/guest-activity.service.js";
import type { NasContext } from "./nas-lookup.js";
import { findEapTlsIdentity } from "./eap/eap-tls-identity.js";
import { type PasswordProof, proofMatches } from "./password-check.js";
import { isCredentialUsername } from "./portal-credentials.js";
import { isPasspointUsername } from "../modules/passpoint/passpoint-values.js";
import { authorizePasspointPassword } from "./passpoint-access.js";
import type { RadiusCtx } from "./radius.repository.js";
import { type VoucherLimits, VOUCHER_REFUSALS, voucherLimits } from "../modules/vouchers/vouchers.service.js";
import { grantFor } from "../gateways/grant-policy.js";
import { type AcceptReply, AcceptTemplate, type AcceptTemplates, acceptOptionsOf } from "./reply-attributes.js";
import { leadingMac } from "./station-id.js";
import type { PacketTime } from "./packet-time.js";
import type { VisitMemo } from "./visit-memo.js";

export interface AccessDeps {
  ctx: RadiusCtx;
  config: Readonly<Config>;
  visits: VisitMemo;
  times: PacketTime;
  /** The encoded Access-Accept attributes of each cached access point (its family, its location's options). */
  templates: AcceptTemplates;
  /**
   * Counts a returning guest's visit (resolves once committed); the RADIUS server batches these like
   * accounting, so that a morning's first re-authorisations do not each commit a transaction.
   * Without it, each visit is written in a transaction of its own.
   */
  writeVisit?: SubmitWrite<VisitJob, boolean>;
}

export interface VisitJob {
  locationId: number;
  day: string;
  guestId: number;
}

export interface AccessRequest {
  userName: string | undefined;
  /** What the request proves of the password (only a credential's User-Name needs one). */
  proof: PasswordProof;
  /** Canonical client MAC from Calling-Station-Id, as the gateway vouches for it. */
  clientMac: string | undefined;
}

export type AccessDecision =
  | { accept: true; attributes: AcceptReply; guestId: number; via: "credential" | "mac" | "passpoint" }
  | { accept: false; reason: string; replyMessage?: string };

export const CAP_SPENT_MESSAGE = "Your data allowance at this location for today is used up.";
export const NOT_ASSIGNED_MESSAGE = "This access point is not assigned to a location.";

function reject(reason: string, replyMessage?: string): AccessDecision {
  return { accept: false, reason, replyMessage };
}

export async function authorizeAccess(deps: AccessDeps, nas: NasContext, req: AccessRequest, at = new Date()): Promise<AccessDecision> {
  const { ctx, config, visits, times, templates, writeVisit } = deps;
  const { db, radius: radiusRepository } = ctx;
  const { device, location, options } = nas;
  const template = templates.for(nas);
  if (!location || !options || !template) return reject("device not assigned to a live location", NOT_ASSIGNED_MESSAGE);
  if (!req.userName) return reject("no User-Name");
  // A Passpoint credential (pp-...@realm): PAP, or EAP-TTLS's inner PAP (src/radius/passpoint-access.ts).
  if (isPasspointUsername(req.userName)) return authorizePasspointPassword(deps, nas, { ...req, userName: req.userName }, at);
  const now = times.dbDatetime(at);

  const day = times.localDay(at, location.timezone);
  const credential = isCredentialUsername(req.userName) ? await radiusRepository.findCredential(db, req.userName) : undefined;
  let guestId: number;
  let used: number;
  let via: "credential" | "mac";
  // The day's visit, found counted by the returning guest's look-up.
  let visitCounted = false;
  let voucher: VoucherLimits | undefined;
  if (credential) {
    const proven = req.proof.kind === "eap-tls" ? findEapTlsIdentity(req.proof, credential.username) : proofMatches(req.proof, credential.password);
    if (!proven) return reject(req.proof.kind === "eap-tls" ? "client certificate not issued for this credential" : "wrong credential password");
    if (credential.location_id !== location.id) return reject("credential issued for another location");
    if (credential.device_id !== null && credential.device_id !== device.id) return reject("credential issued for another access point");
    if (credential.client_mac !== "" && credential.client_mac !== req.clientMac) return reject("credential issued for another client");
    if (credential.used_at !== null) return reject("credential already used");
    if (credential.expires_at <= now) return reject("credential expired");
    guestId = credential.guest_id;
    if (credential.voucher_id != null) {
      // A voucher login: its own time, rates and data allowance replace the location's.
      const limits = await voucherLimits(ctx, credential.voucher_id, at);
      if (typeof limits === "string") return reject(`voucher ${limits}`, VOUCHER_REFUSALS[limits]);
      voucher = limits;
    }
    used = options.daily_bandwidth_cap > 0 && voucher?.bytesLeft === undefined ? await radiusRepository.usageOn(db, guestId, location.id, day) : 0;
    via = "credential";
  } else {
    // MAC authentication (CoovaChilli macauth): User-Name is the client's MAC, possibly with a
    // suffix; the password is a fixed public string, so what vouches for the guest is the
    // gateway's own Calling-Station-Id under the device secret.
    const days = config.radius.returningGuestDays;
    if (days <= 0 || !req.clientMac || leadingMac(req.userName) !== req.clientMac) return reject("unknown user");
    const since = times.dbDatetime(new Date(at.getTime() - days * 86_400_000));
    const returning = await radiusRepository.findReturningGuestUsage(db, {
      accountId: device.account_id,
      clientMac: req.clientMac,
      since,
      locationId: location.id,
      day,
    });
    if (returning === undefined) return reject("not a returning guest");
    guestId = returning.guestId;
    used = returning.usedOctets;
    visitCounted = returning.visitCounted;
    via = "mac";
  }

  // What the guest gets: the grant policy's answer (src/gateways/grant-policy.ts).
  const grant = grantFor({ options, voucher, usedToday: used, settings: { interimInterval: config.radius.interimInterval } });
  const remaining = grant.remainingBytes;
  if (grant.spent) return reject("daily cap spent", CAP_SPENT_MESSAGE);

  if (credential) {
    // The atomic step: of two concurrent requests with one credential, only one gets here.
    if (!(await radiusRepository.consumeCredential(db, credential.id, now))) return reject("credential already used");
  } else {
    if (!visits.has(location.id, day, guestId)) {
      // A visit the look-up found counted (by this instance before a restart, or by another) is only remembered.
      if (!visitCounted) {
        if (writeVisit) await writeVisit({ locationId: location.id, day, guestId });
        else await recordVisit(db, { locationId: location.id, timezone: location.timezone, guestId, at });
      }
      visits.remember(location.id, day, guestId);
    }
  }
  if (voucher) {
    const own = new AcceptTemplate(template.dialect, acceptOptionsOf(grant), template.roleAttribute);
    return { accept: true, attributes: own.reply(remaining), guestId, via };
  }
  // Session time, rates and the interval were encoded once for this access point; only the cap is the guest's.
  return { accept: true, attributes: template.reply(remaining), guestId, via };
}
