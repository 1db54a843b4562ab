import { type ApiRouter, ok } from "../../http/api-route.js";
import type { Ctx } from "../context.js";
import { ownedLocation } from "../locations/locations.refs.js";
import * as S from "./sessions.schemas.js";
import { listLiveSessions } from "./sessions.service.js";

const tags = ["Sessions"];

export function sessionRoutes(api: ApiRouter<Ctx>): void {
  api.route({
    method: "GET",
    url: "/api/session-list",
    summary: "Guests online now at the given locations, from RADIUS accounting",
    description:
      "One entry per open RADIUS session whose gateway sent accounting within the last " +
      `${S.LIVE_INTERVALS} accounting intervals (RADIUS_INTERIM_INTERVAL), ordered by session_id. ` +
      "Counters are the gateway's own, as of last_update. Pages of `limit` sessions: pass " +
      "next_after_session_id back as after_session_id until it is null.",
    tags,
    access: "read",
    params: S.SessionListParams,
    refs: { location_ids: ownedLocation.list(S.MAX_SESSION_LOCATIONS) },
    response: S.SessionListResponse,
    handler: async ({ ctx, config }, p, r) =>
      ok(
        await listLiveSessions(ctx, {
          locations: r.location_ids,
          interimIntervalSeconds: config.radius.interimInterval,
          afterId: p.after_session_id ?? 0,
          limit: p.limit ?? S.DEFAULT_SESSION_PAGE,
        }),
      ),
  });
}
