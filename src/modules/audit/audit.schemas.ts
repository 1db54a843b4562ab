import { Type } from "@sinclair/typebox";
import { F } from "../../http/validation.js";

const Success = Type.Literal("success");

export const AUDIT_MAX_PER_PAGE = 200;
export const MAX_AUDIT_RETENTION_DAYS = 3650;

export const AuditLogListParams = Type.Object({
  identifier: F.identifier(),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: "Page, from 1 (newest first).", "x-error": "invalid" })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: AUDIT_MAX_PER_PAGE, description: `Entries per page, at most ${AUDIT_MAX_PER_PAGE} (default 50).`, "x-error": "invalid" })),
  actor_type: Type.Optional(
    Type.Union([Type.Literal("owner"), Type.Literal("sub-user"), Type.Literal("cli")], {
      description: "Only the owner's, the sub-users' or the command line's writes.",
      "x-error": "oneOf",
      "x-values": ["owner", "sub-user", "cli"],
    }),
  ),
  sub_user_id: Type.Optional(F.id("Only this sub-user's writes (deleted sub-users' ids too).")),
  action: Type.Optional(F.text(64, "Only this action: a route's name (create-or-update-location) or a console or command-line action.", { pattern: "^[a-z0-9.:-]+$" })),
  object: Type.Optional(F.text(80, "Only writes about this record, as parameter:id (location_id:3, device_id:7).", { pattern: "^[a-z_]+:[0-9]{1,10}$" })),
  from_date: Type.Optional(F.date("First day (UTC).")),
  to_date: Type.Optional(F.date("Last day (UTC).")),
});

export const AuditEntry = Type.Object({
  id: Type.Integer(),
  at: Type.String({ description: "UTC, YYYY-MM-DD HH:MM:SS" }),
  actor_type: Type.String({ description: "owner, sub-user or cli" }),
  actor: Type.String({ description: "The owner's or sub-user's e-mail as it was then; \"command line\" for the CLI." }),
  sub_user_id: Type.Union([Type.Integer(), Type.Null()]),
  via: Type.String({ description: "api, console or cli" }),
  action: Type.String(),
  objects: Type.Record(Type.String(), Type.Array(Type.Integer()), { description: "The records concerned, ids by parameter." }),
  changes: Type.Record(Type.String(), Type.Unknown(), { description: 'The fields given; secrets as "(changed)", long values by their length.' }),
  address: Type.String({ description: "The client's address (empty for the command line)." }),
});

export const AuditLogListResponse = Type.Object({
  status: Success,
  data: Type.Array(AuditEntry),
  total: Type.Integer(),
  page: Type.Integer(),
  per_page: Type.Integer(),
  retention_days: Type.Integer({ description: "Entries older than this are deleted; 0: kept for ever." }),
});

export const AuditRetentionParams = Type.Object({
  identifier: F.identifier(),
  retention_days: Type.Integer({
    minimum: 0,
    maximum: MAX_AUDIT_RETENTION_DAYS,
    description: `Audit entries older than this many days are deleted (default 365); 0 keeps them for ever. At most ${MAX_AUDIT_RETENTION_DAYS}.`,
    "x-error": "invalid",
  }),
});

export const AuditRetentionResponse = Type.Object({ status: Success, message: Type.String(), retention_days: Type.Integer() });
