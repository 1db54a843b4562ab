/**
 * The console's guest pages: `GET /console/api/guests` (search) and `GET /console/api/guest` (a
 * profile), declared through the API's pipeline like the console's other routes.
 */
import type { AppDeps } from "../app-deps.js";
import { type ApiRouter, ok } from "../http/api-route.js";
import { canonicalMac } from "../mac-address.js";
import { ownedGuest } from "../modules/guests/guests.refs.js";
import * as S from "./console.schemas.js";

export function guestRoutes(api: ApiRouter<AppDeps>): void {
  api.route({
    method: "GET",
    url: "/console/api/guests",
    via: "console",
    summary: "Search the account's guests by name, e-mail, phone or MAC, newest first, in pages",
    tags: ["Console"],
    access: "read",
    params: S.GuestSearchParams,
    response: S.GuestSearchResponse,
    handler: async ({ ctx, caller }, p) => {
      const text = (p.q ?? "").trim();
      const mac = /^[0-9a-fA-F]{2}([:-]?[0-9a-fA-F]{2}){5}$/.test(text) ? canonicalMac(text) : null;
      const rows = await ctx.repos.guests.search(ctx.db, caller.accountId, { text, mac, beforeId: p.before_id ?? null, limit: S.GUEST_PAGE + 1 });
      // A scoped sub-user sees the guests of its locations only (a page may then be shorter).
      const scope = caller.locationScope;
      const seen = scope === null ? null : await ctx.repos.guests.seenAt(ctx.db, rows.slice(0, S.GUEST_PAGE).map((g) => g.id), scope);
      const page = rows.slice(0, S.GUEST_PAGE).filter((g) => seen === null || seen.has(g.id));
      const macs = await ctx.repos.guests.macsOf(ctx.db, caller.accountId, page.map((g) => g.id));
      return ok({
        data: page.map((g) => ({ ...g, macs: macs.filter((m) => m.guest_id === g.id).map((m) => m.client_mac) })),
        next_before_id: rows.length > S.GUEST_PAGE ? rows[S.GUEST_PAGE - 1].id : null,
      });
    },
  });

  api.route({
    method: "GET",
    url: "/console/api/guest",
    via: "console",
    summary: "A guest's profile: record, MAC addresses and latest logins",
    tags: ["Console"],
    access: "read",
    params: S.GuestParams,
    refs: { id: ownedGuest.one() },
    response: S.GuestResponse,
    handler: async ({ ctx, caller }, _p, r) => {
      const [macs, logins] = await Promise.all([ctx.repos.guests.macsOf(ctx.db, caller.accountId, [r.id.id]), ctx.repos.guests.loginHistory(ctx.db, r.id.id, 100)]);
      // The consent texts the guest was shown, by version: the text itself and when it was first saved.
      const texts = await ctx.repos.consentTexts.find(ctx.db, [r.id.marketing_version, ...logins.flatMap((l) => [l.terms_version, l.marketing_version])]);
      return ok({ data: { guest: r.id, macs, logins, texts } });
    },
  });
}
