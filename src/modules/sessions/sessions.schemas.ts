import { Type } from "@sinclair/typebox";
import { F } from "../../http/validation.js";

/** At most this many ids in location_ids. */
export const MAX_SESSION_LOCATIONS = 100;
export const DEFAULT_SESSION_PAGE = 1000;
export const MAX_SESSION_PAGE = 5000;
/** A session whose gateway has said nothing for this many accounting intervals is not live any more. */
export const LIVE_INTERVALS = 3;

export const SessionListParams = Type.Object({
  identifier: F.identifier(),
  location_ids: F.idList(`One location id or up to ${MAX_SESSION_LOCATIONS} comma-separated ids (deleted locations allowed).`),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_SESSION_PAGE,
      description: `Sessions per page, 1-${MAX_SESSION_PAGE} (${DEFAULT_SESSION_PAGE} when omitted).`,
      "x-error": "invalid",
    }),
  ),
  after_session_id: Type.Optional(F.idOrZero("The next page: the next_after_session_id of the previous answer.")),
});

const Datetime = (description: string) => Type.String({ description: `${description} (UTC, YYYY-MM-DD HH:MM:SS).` });

export const LiveSession = Type.Object({
  session_id: Type.Integer(),
  location_id: Type.Integer(),
  social_user_id: Type.Integer({ description: "The guest; 0 when the session could not be tied to one (e.g. a MAC never seen at a login)." }),
  guest_name: Type.String({ description: "The guest's name as given at a login, else the guest's e-mail address, else \"\" (no guest, or a guest who gave neither)." }),
  client_mac: Type.String({ description: "The guest device's MAC (Calling-Station-Id) as XX:XX:XX:XX:XX:XX, or \"\"." }),
  ip_address: Type.String({ description: "The guest's address on the gateway's network (Framed-IP-Address), or \"\" until reported." }),
  device_id: Type.Integer({ description: "The access point or gateway reporting the session." }),
  device_name: Type.String(),
  device_mac: Type.String({ description: "MAC of that access point or gateway." }),
  started_at: Datetime("When the session began"),
  last_update: Datetime("The gateway's latest accounting packet for it"),
  duration: Type.Integer({ description: "Seconds online, as the gateway counts them (Acct-Session-Time)." }),
  bytes_in: Type.Integer({ description: "Octets the guest sent (Acct-Input-Octets with gigawords)." }),
  bytes_out: Type.Integer({ description: "Octets the guest received (Acct-Output-Octets with gigawords)." }),
});

export const SessionListResponse = Type.Object({
  status: Type.Literal("success"),
  data: Type.Array(LiveSession),
  next_after_session_id: Type.Union([Type.Integer(), Type.Null()], {
    description: "Pass as after_session_id for the next page; null on the last page.",
  }),
});

export const DisconnectSessionParams = Type.Object({
  identifier: F.identifier(),
  session_id: F.id("The live session to end (session_id of GET /api/session-list)."),
});

export const CoaResult = Type.Object({
  session_id: Type.Integer(),
  request_id: Type.Integer({ description: "The recorded request (kept with the session)." }),
  result: Type.Union(["ack", "nak", "timeout", "unsupported", "no-address"].map((v) => Type.Literal(v)), {
    description:
      "ack: the gateway ended the session; nak: it refused (see error_cause); timeout: no answer after every retry; " +
      "unsupported: the gateway's family has no Disconnect-Request; no-address: no address of the gateway is known.",
  }),
  error_cause: Type.Union([Type.Integer(), Type.Null()], { description: "RFC 5176 Error-Cause of a NAK (e.g. 503 Session Context Not Found), or null." }),
  attempts: Type.Integer({ description: "Requests sent (retries included)." }),
});

export const DisconnectSessionResponse = Type.Object({
  status: Type.Literal("success"),
  message: Type.String(),
  data: CoaResult,
});
