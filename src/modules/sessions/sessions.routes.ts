import { type ApiRouter, SerializedJson, ok } from "../../http/api-route.js";
import type { Ctx } from "../context.js";
import { ownedLocation } from "../locations/locations.refs.js";
import * as S from "./sessions.schemas.js";
import { ownedSession } from "./sessions.refs.js";
import { disconnectSession, listLiveSessions } from "./sessions.service.js";

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
    // Each chunk is serialised as it is read (its records have the schema's fields and types): on
    // SQLite, where the event loop runs between chunks, a page of thousands never holds it throughout.
    handler: async ({ ctx, config }, p, r) => {
      const parts: string[] = [];
      const { nextAfterId } = await listLiveSessions(
        ctx,
        {
          locations: r.location_ids,
          interimIntervalSeconds: config.radius.interimInterval,
          afterId: p.after_session_id ?? 0,
          limit: p.limit ?? S.DEFAULT_SESSION_PAGE,
        },
        // A chunk's array without its brackets: one stringify per chunk costs half of one per record.
        (chunk) => parts.push(JSON.stringify(chunk).slice(1, -1)),
      );
      return new SerializedJson(
        `{"status":"success","data":[${parts.join(",")}],"next_after_session_id":${nextAfterId === null ? "null" : nextAfterId}}`,
      );
    },
  });

  api.route({
    method: "POST",
    url: "/api/disconnect-session",
    summary: "End a guest's live session now (RFC 5176 Disconnect-Request to its gateway)",
    description:
      "Sends a Disconnect-Request, with Message-Authenticator, to the gateway that reported the session, retried with " +
      "back-off (RADIUS_COA_TIMEOUT_MS, RADIUS_COA_ATTEMPTS), and answers with what the gateway said. On an ACK the " +
      "session is closed at once. Gateways of a family without Disconnect support answer `unsupported`; the guest " +
      "then stays online until the session's own timeout. The request is recorded either way.",
    tags,
    access: "write",
    params: S.DisconnectSessionParams,
    refs: { session_id: ownedSession.one() },
    response: S.DisconnectSessionResponse,
    // The gateway is asked over the network, which can take seconds: no transaction held meanwhile.
    transaction: false,
    handler: async ({ ctx, config }, _p, r) => {
      const out = await disconnectSession(ctx, r.session_id, config);
      return ok({
        message: out.result === "ack" ? "The session has been disconnected." : "The gateway did not confirm the disconnect.",
        data: { session_id: out.sessionId, request_id: out.requestId, result: out.result, error_cause: out.errorCause, attempts: out.attempts },
      });
    },
  });
}
