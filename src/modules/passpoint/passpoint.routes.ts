import { type ApiRouter, ok } from "../../http/api-route.js";
import { identifierOf } from "../../http/caller.js";
import type { Ctx } from "../context.js";
import { ownedGuest } from "../guests/guests.refs.js";
import { liveLocation } from "../locations/locations.refs.js";
import { type RevokedBy, revokeCredentials, toCredentialRecord } from "./passpoint-credentials.service.js";
import { dnsName, parseRoamingConsortium } from "./passpoint-values.js";
import { ownedPasspoint, ownedPasspointCredential } from "./passpoint.refs.js";
import * as S from "./passpoint.schemas.js";
import * as passpoint from "./passpoint.service.js";

const tags = ["Passpoint"];

export function passpointRoutes(api: ApiRouter<Ctx>): void {
  api.route({
    method: "POST",
    url: "/api/create-or-update-passpoint",
    summary: 'Offer "connect automatically" (Passpoint / Hotspot 2.0) at some locations, or update such a configuration when passpoint_id is given',
    description:
      "After a portal login at a covered location the guest gets a credential (EAP-TTLS username and password, or an EAP-TLS client certificate) " +
      "and a profile to install; the device then joins the secure SSID by itself at every covered location. On update, fields not given keep their value; " +
      "location_ids replaces the covered locations.",
    tags,
    access: "write",
    params: S.PasspointWriteParams,
    refs: { location_ids: liveLocation.list(S.MAX_PASSPOINT_LOCATIONS), passpoint_id: ownedPasspoint.one("update") },
    checks: [
      ({ p, fail }) => {
        if (p.domain !== undefined && !dnsName(p.domain)) fail("domain", "The domain must be a DNS name such as wifi.example.com.");
        if (p.realm !== undefined && !dnsName(p.realm)) fail("realm", "The realm must be an NAI realm, a DNS name such as example.com (RFC 7542).");
        if (p.roaming_consortium !== undefined) {
          const parsed = parseRoamingConsortium(p.roaming_consortium);
          if ("problem" in parsed) fail("roaming_consortium", parsed.problem);
        }
      },
    ],
    response: S.PasspointWriteResponse,
    handler: async ({ ctx, caller }, p, r) => {
      const parsed = parseRoamingConsortium(p.roaming_consortium ?? r.passpoint_id?.roaming_consortium ?? "");
      if ("problem" in parsed) throw new Error("roaming_consortium was checked");
      const { id, created } = await passpoint.savePasspoint(
        ctx,
        caller.accountId,
        {
          ssid: p.ssid,
          domain: dnsName(p.domain)!,
          realm: dnsName(p.realm)!,
          ois: parsed.ois,
          friendlyName: p.friendly_name,
          eapMethod: p.eap_method,
          credentialDays: p.credential_days,
        },
        r.location_ids,
        r.passpoint_id,
      );
      const record = (await passpoint.listPasspoint(ctx, { accountId: caller.accountId, locationScope: null })).find((c) => c.id === id)!;
      return ok({
        message: created ? "Passpoint configuration has been successfully created." : "Passpoint configuration has been successfully updated.",
        passpoint_id: id,
        data: record,
      });
    },
  });

  api.route({
    method: "GET",
    url: "/api/passpoint-list",
    summary: "The account's Passpoint configurations, ordered by id, with the locations each covers",
    tags,
    access: "read",
    params: S.PasspointListParams,
    response: S.PasspointListResponse,
    handler: async ({ ctx, caller }) => ok({ data: await passpoint.listPasspoint(ctx, caller) }),
  });

  api.route({
    method: "POST",
    url: "/api/delete-passpoint",
    summary: "Delete a Passpoint configuration: its locations stop issuing credentials, and credentials issued under it stop working",
    tags,
    access: "write",
    params: S.DeletePasspointParams,
    refs: { passpoint_id: ownedPasspoint.one("update") },
    response: S.MessageResponse,
    handler: async ({ ctx }, _p, r) => {
      await passpoint.deletePasspoint(ctx, r.passpoint_id);
      return ok({ message: "Passpoint configuration has been successfully deleted." });
    },
  });

  api.route({
    method: "GET",
    url: "/api/passpoint-credential-list",
    summary: "A guest's Passpoint credentials (never a password or key), with state and expiry",
    tags,
    access: "read",
    params: S.CredentialListParams,
    refs: { user_id: ownedGuest.one() },
    response: S.CredentialListResponse,
    handler: async ({ ctx }, _p, r) => {
      const rows = await ctx.repos.passpoint.credentialsOfGuest(ctx.db, r.user_id.id);
      const now = new Date();
      return ok({ data: rows.map((row) => toCredentialRecord(row, now)) });
    },
  });

  api.route({
    method: "POST",
    url: "/api/revoke-passpoint-credential",
    summary: "Revoke one Passpoint credential (credential_id) or every credential of a guest (user_id): the next authentication is refused",
    description: "A device online with it keeps its session until it authenticates again (roaming to another access point, or the session's end).",
    tags,
    access: "write",
    params: S.RevokeCredentialParams,
    refs: { user_id: ownedGuest.one(), credential_id: ownedPasspointCredential.one("update") },
    checks: [
      ({ given, fail }) => {
        if (given("credential_id") === given("user_id")) fail("credential_id", "Give either credential_id or user_id.");
      },
    ],
    response: S.RevokeCredentialResponse,
    handler: async ({ ctx, request }, _p, r) => {
      const target = r.credential_id ? { ids: [r.credential_id.id] } : { guestId: r.user_id!.id };
      // As the audit log tells the console from the API: a session cookie and no identifier.
      const by: RevokedBy = request.headers.cookie !== undefined && identifierOf(request) === undefined ? "console" : "api";
      const revoked = await revokeCredentials(ctx, target, by);
      return ok({ message: revoked === 1 ? "1 credential has been revoked." : `${revoked} credentials have been revoked.`, revoked });
    },
  });
}
