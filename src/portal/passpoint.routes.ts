/**
 * "Connect automatically next time" (docs/passpoint.md): the page a guest reaches from the
 * connected page after a portal login at a location a Passpoint configuration covers, and the
 * profiles it links to. The guest is the one the device cookie names (set by the login: only a
 * browser that logged in here gets a credential); each profile download issues the credential it
 * carries (a password is shown once and kept only hashed), so each device gets its own, revocable
 * alone. A guest keeps at most MAX_VALID_PER_GUEST valid ones: a further download revokes the oldest.
 */
import { X509Certificate } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { pkcs12Bundle } from "../modules/device-certificates/certificate-authority.js";
import { findLiveLocation } from "../modules/locations/locations.service.js";
import type { LocationRow } from "../modules/locations/locations.repository.js";
import type { GuestRow } from "../modules/guests/guests.repository.js";
import { credentialState, issueTlsCredential, issueTtlsCredential, revokeCredentials } from "../modules/passpoint/passpoint-credentials.service.js";
import { type ProfileCredential, type ProfileFile, type ProfilePlatform, androidProfile, appleProfile, platformOf, windowsProfile } from "../modules/passpoint/passpoint-profiles.js";
import { passpointOfLocation } from "../modules/passpoint/passpoint.service.js";
import type { PasspointConfigRow } from "../modules/passpoint/passpoint.repository.js";
import { signProfile } from "../modules/passpoint/profile-signing.js";
import { translator } from "../i18n/catalogue.js";
import { portalErrors } from "./portal-errors.js";
import { newNonce, setPortalHeaders } from "./portal-headers.js";
import { inCaptiveAssistant, pageLanguage } from "./portal-language.js";
import { userAgentOf } from "./portal-request.js";
import type { PortalDeps } from "./portal-deps.js";
import { eapServerTrust } from "./passpoint-trust.js";
import { PORTAL_PASSPOINT_PREFIX } from "../portal-urls.js";
import { cookieGuest } from "./returning-guest.js";
import { passpointPage, passpointWindowsPage } from "./views/passpoint-page.view.js";

const PASSPOINT_PREFIX = PORTAL_PASSPOINT_PREFIX;
export const MAX_VALID_PER_GUEST = 5;
/** A voucher's guest gets no credential: the voucher's own duration would not bind it. */
const VOUCHER_NETWORK = "Vuser";

interface Covered {
  location: LocationRow;
  config: PasspointConfigRow;
  guest: GuestRow;
}

/** The location, its configuration and the cookie's guest, or the portal error that says what is missing. */
async function covered(request: FastifyRequest<{ Params: { loc: string } }>, deps: PortalDeps): Promise<Covered> {
  const id = /^[1-9]\d{0,9}$/.test(request.params.loc) ? Number(request.params.loc) : 0;
  const location = id > 0 ? await findLiveLocation(deps.ctx, id) : undefined;
  const config = location ? await passpointOfLocation(deps.ctx, location.id) : undefined;
  if (!location || !config) throw portalErrors.passpointNotOffered();
  const guest = await cookieGuest(request, deps, location);
  if (!guest) throw portalErrors.passpointLoginFirst();
  if (guest.social_network === VOUCHER_NETWORK) throw portalErrors.passpointVoucher();
  return { location, config, guest };
}

function trFor(request: FastifyRequest) {
  return translator(pageLanguage(request, (request.query as Record<string, unknown> | undefined)?.lang));
}

function htmlReply(reply: FastifyReply, nonce: string): void {
  setPortalHeaders(reply, nonce, []);
  reply.type("text/html; charset=utf-8");
}

/** Revokes the guest's oldest valid credentials beyond MAX_VALID_PER_GUEST - 1, making room for one more. */
async function makeRoom(deps: PortalDeps, guestId: number): Promise<void> {
  const now = new Date();
  const valid = (await deps.ctx.repos.passpoint.credentialsOfGuest(deps.ctx.db, guestId)).filter((c) => credentialState(c, now) === "valid");
  const extra = valid.length - (MAX_VALID_PER_GUEST - 1);
  if (extra > 0) await revokeCredentials(deps.ctx, { ids: valid.slice(0, extra).map((c) => c.id) }, "guest", now);
}

async function issueFor(deps: PortalDeps, c: Covered, platform: ProfilePlatform): Promise<ProfileCredential> {
  await makeRoom(deps, c.guest.id);
  const f = { accountId: c.location.account_id, guestId: c.guest.id, locationId: c.location.id, config: c.config };
  // Windows' profile takes no certificate identity in this form: it stays EAP-TTLS.
  if (c.config.eap_method === "tls" && platform !== "windows") {
    const tls = await issueTlsCredential(deps.ctx, deps.config, f);
    // Android opens the PKCS#12 with an empty password; Apple's payload carries its password.
    if (platform === "android") return { kind: "tls", username: tls.username, pkcs12: reBundle(tls), pkcs12Password: "", fingerprintSha256: tls.fingerprintSha256 };
    return { kind: "tls", username: tls.username, pkcs12: tls.pkcs12, pkcs12Password: tls.pkcs12Password, fingerprintSha256: tls.fingerprintSha256 };
  }
  const ttls = await issueTtlsCredential(deps.ctx, f);
  return { kind: "ttls", username: ttls.username, password: ttls.password };
}

function reBundle(tls: Awaited<ReturnType<typeof issueTlsCredential>>): string {
  const x = new X509Certificate(tls.certificate);
  return pkcs12Bundle(
    { certificate: tls.certificate, privateKey: tls.privateKey, serial: tls.serial, fingerprintSha256: tls.fingerprintSha256, subject: x.subject, notBefore: new Date(x.validFrom), notAfter: new Date(x.validTo) },
    tls.caCertificate,
    "",
    tls.username,
  );
}

async function profileOf(deps: PortalDeps, c: Covered, platform: Exclude<ProfilePlatform, "windows">): Promise<{ file: ProfileFile; body: string | Buffer }> {
  const credential = await issueFor(deps, c, platform);
  const trust = await eapServerTrust(deps.ctx, deps.config);
  const input = { config: c.config, credential, caCertificate: trust.caCertificate, serverName: trust.serverName, identifierBase: `${reverseDns(c.config.domain)}.passpoint` };
  if (platform === "android") {
    const file = androidProfile(input);
    return { file, body: file.body };
  }
  const file = appleProfile(input);
  const signing = deps.config.passpointSigning;
  return { file, body: signing ? await signProfile(file.body, signing) : file.body };
}

function reverseDns(domain: string): string {
  return domain.split(".").reverse().join(".");
}

export function passpointRoutes(app: FastifyInstance, deps: PortalDeps): void {
  app.get<{ Params: { loc: string } }>(`${PASSPOINT_PREFIX}:loc`, { schema: { hide: true } }, async (request, reply) => {
    const c = await covered(request, deps);
    const nonce = newNonce();
    htmlReply(reply, nonce);
    const ua = userAgentOf(request);
    return passpointPage({ tr: trFor(request), nonce, locationId: c.location.id, ssid: c.config.ssid, platform: platformOf(ua), inAssistant: inCaptiveAssistant(ua) });
  });

  for (const platform of ["apple", "android"] as const) {
    const path = platform === "apple" ? `${PASSPOINT_PREFIX}:loc/apple.mobileconfig` : `${PASSPOINT_PREFIX}:loc/android`;
    app.get<{ Params: { loc: string } }>(path, { schema: { hide: true } }, async (request, reply) => {
      await deps.limits.loginAttempt(request);
      const c = await covered(request, deps);
      const { file, body } = await profileOf(deps, c, platform);
      reply.headers({ "cache-control": "no-store", "x-content-type-options": "nosniff" });
      // Android's installer starts only with this type, base64 transfer encoding and no Content-Disposition.
      if (platform === "android") reply.header("content-transfer-encoding", "base64");
      else reply.header("content-disposition", `attachment; filename="${file.filename}"`);
      reply.type(file.contentType);
      return body;
    });
  }

  app.get<{ Params: { loc: string } }>(`${PASSPOINT_PREFIX}:loc/windows`, { schema: { hide: true } }, async (request, reply) => {
    await deps.limits.loginAttempt(request);
    const c = await covered(request, deps);
    await makeRoom(deps, c.guest.id);
    const ttls = await issueTtlsCredential(deps.ctx, { accountId: c.location.account_id, guestId: c.guest.id, locationId: c.location.id, config: c.config });
    const nonce = newNonce();
    htmlReply(reply, nonce);
    return passpointWindowsPage({ tr: trFor(request), nonce, locationId: c.location.id, username: ttls.username, password: ttls.password, expiresAt: ttls.expiresAt });
  });

  app.get<{ Params: { loc: string } }>(`${PASSPOINT_PREFIX}:loc/windows-profile.xml`, { schema: { hide: true } }, async (request, reply) => {
    const c = await covered(request, deps);
    const trust = await eapServerTrust(deps.ctx, deps.config);
    // The profile holds no secret: the credential is typed at the first connection.
    const file = windowsProfile({ config: c.config, credential: { kind: "ttls", username: "", password: "" }, caCertificate: trust.caCertificate, serverName: trust.serverName, identifierBase: "" });
    reply.headers({ "cache-control": "no-store", "content-disposition": `attachment; filename="${file.filename}"` }).type(file.contentType);
    return file.body;
  });

  app.get<{ Params: { loc: string } }>(`${PASSPOINT_PREFIX}:loc/ca.cer`, { schema: { hide: true } }, async (request, reply) => {
    await covered(request, deps);
    const trust = await eapServerTrust(deps.ctx, deps.config);
    reply.headers({ "cache-control": "no-store", "content-disposition": 'attachment; filename="ca.cer"' }).type("application/x-x509-ca-cert");
    return new X509Certificate(trust.caCertificate).raw;
  });
}
