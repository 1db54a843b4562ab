/**
 * A Passpoint credential's Access-Request (docs/passpoint.md): a PAP User-Password (what EAP-TTLS's
 * inner PAP becomes, src/radius/eap/) checked against the credential's hash, or an EAP-TLS client
 * certificate already matched by findPasspointCertificate. Accepted like any login at the
 * location: the grant policy's options, today's cap, a login of its own type (PPuser) for the
 * guest who got the credential, and Chargeable-User-Identity (RFC 4372) so that the gateway
 * counts one guest whatever MAC address the device uses.
 */
import { recordLogin } from "../modules/guests/guest-activity.service.js";
import { PASSPOINT_LOGIN_TYPE } from "../modules/guests/login-types.js";
import { type PasspointIdentity, checkPasspointPassword, findPasspointCertificate } from "../modules/passpoint/passpoint-credentials.service.js";
import { grantFor } from "../gateways/grant-policy.js";
import type { Config } from "../config.js";
import type { NasContext } from "./nas-lookup.js";
import type { PacketTime } from "./packet-time.js";
import type { PasswordProof } from "./password-check.js";
import type { RadiusCtx } from "./radius.repository.js";
import type { AcceptReply, AcceptTemplates } from "./reply-attributes.js";
import type { VisitMemo } from "./visit-memo.js";

/** What a Passpoint request needs of the access rules' dependencies (access.service.ts's AccessDeps has them). */
export interface PasspointAccessDeps {
  ctx: RadiusCtx;
  config: Readonly<Config>;
  visits: VisitMemo;
  times: PacketTime;
  templates: AcceptTemplates;
}

export type PasspointDecision =
  | { accept: true; attributes: AcceptReply; guestId: number; via: "passpoint" }
  | { accept: false; reason: string; replyMessage?: string };

/** RFC 4372 section 2: Chargeable-User-Identity, type 89, a string. */
const CHARGEABLE_USER_IDENTITY = 89;

export const PASSPOINT_CAP_SPENT_MESSAGE = "Your data allowance at this location for today is used up.";

function reject(reason: string, replyMessage?: string): PasspointDecision {
  return { accept: false, reason, replyMessage };
}

/** The attribute, encoded: type, length, value. */
export function cuiAttribute(cui: string): Buffer {
  const value = Buffer.from(cui, "utf8").subarray(0, 253);
  return Buffer.concat([Buffer.from([CHARGEABLE_USER_IDENTITY, value.length + 2]), value]);
}

/** A Passpoint username with a PAP password: its identity, then passpointAccess. CHAP cannot be checked against a hash. */
export async function authorizePasspointPassword(
  deps: PasspointAccessDeps,
  nas: NasContext,
  req: { userName: string; proof: PasswordProof; clientMac: string | undefined },
  at: Date,
): Promise<PasspointDecision> {
  if (req.proof.kind === "eap-tls") {
    // EAP-TLS: the handshake verified the chain to the service CA; the certificate must be one we
    // issued for this very credential (serial and fingerprint), neither revoked nor expired.
    const identity = await findPasspointCertificate(deps.ctx.db, req.proof.certificate, at, deps.ctx.repos);
    if (!identity || req.proof.commonName !== req.userName) return reject("passpoint certificate unknown, revoked, expired or not this credential's");
    return passpointAccess(deps, nas, identity, req.clientMac, at);
  }
  if (req.proof.kind !== "pap") return reject("passpoint credential without a PAP password or a client certificate");
  const found = await checkPasspointPassword(deps.ctx.db, deps.ctx.repos, req.userName, req.proof.password, at);
  if (typeof found === "string") return reject(`passpoint credential ${found}`);
  return passpointAccess(deps, nas, found, req.clientMac, at);
}

/** The Access-Accept (or reject) of a Passpoint identity whose proof held, at the access point's location. */
export async function passpointAccess(deps: PasspointAccessDeps, nas: NasContext, identity: PasspointIdentity, clientMac: string | undefined, at: Date): Promise<PasspointDecision> {
  const { ctx, config, visits, times, templates } = deps;
  const { db } = ctx;
  const { device, location, options } = nas;
  const template = templates.for(nas);
  if (!location || !options || !template) return reject("device not assigned to a live location");
  if (identity.accountId !== device.account_id) return reject("passpoint credential of another account");
  // The configuration the credential was issued under must cover this location (a deleted one covers none).
  const covering = await ctx.repos.passpoint.configOfLocation(db, location.id);
  if (covering?.id !== identity.configId) return reject("passpoint not offered at this location");
  const day = times.localDay(at, location.timezone);
  const used = options.daily_bandwidth_cap > 0 ? await ctx.radius.usageOn(db, identity.guestId, location.id, day) : 0;
  const grant = grantFor({ options, usedToday: used, settings: { interimInterval: config.radius.interimInterval } });
  if (grant.spent) return reject("daily cap spent", PASSPOINT_CAP_SPENT_MESSAGE);
  // One login per guest, location and local day: a device re-authenticates at every access point it roams to.
  if (!visits.has(location.id, day, identity.guestId)) {
    const [guest] = await ctx.repos.guests.findOwned(db, identity.accountId, [identity.guestId]);
    if (!guest) return reject("passpoint credential of an erased guest");
    await recordLogin(db, {
      accountId: identity.accountId,
      locationId: location.id,
      timezone: location.timezone,
      campaignId: location.default_campaign_id ?? 0,
      deviceId: device.id,
      loginType: PASSPOINT_LOGIN_TYPE,
      identity: guest.network_user_id,
      guestOf: { loginType: guest.social_network, identity: guest.network_user_id },
      profile: {},
      clientMac: clientMac ?? "",
      userAgent: "",
      at,
    });
    await ctx.repos.passpoint.markUsed(db, identity.credentialId, times.dbDatetime(at));
    visits.remember(location.id, day, identity.guestId);
  }
  return { accept: true, attributes: template.reply(grant.remainingBytes, cuiAttribute(identity.cui)), guestId: identity.guestId, via: "passpoint" };
}
