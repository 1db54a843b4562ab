import { Type } from "@sinclair/typebox";
import { LANGUAGE_TAGS } from "../../i18n/languages.js";
import { F } from "../../http/validation.js";

export const MAX_VOUCHER_COUNT = 10_000;
export const MAX_VOUCHER_LOCATIONS = 100;
/** One year. */
export const MAX_DURATION_MINUTES = 525_600;
export const MAX_DEVICES_PER_CODE = 100;
const BYTES_MAX = 2 ** 50;
export const DEFAULT_VOUCHER_PAGE = 100;
export const MAX_VOUCHER_PAGE = 1000;
export const VOUCHER_STATUSES = ["unused", "active", "used_up", "expired", "revoked"] as const;

const Success = Type.Literal("success");
const Datetime = (description: string) => Type.String({ description: `${description} (UTC, YYYY-MM-DD HH:MM:SS), or "".` });
const Bytes = (description: string) => Type.Optional(Type.Integer({ minimum: 0, maximum: BYTES_MAX, description }));

export const CreateVoucherBatchParams = Type.Object({
  identifier: F.identifier(),
  location_ids: F.idList(`Locations where the codes work: one id or up to ${MAX_VOUCHER_LOCATIONS} comma-separated ids.`),
  count: Type.Integer({ minimum: 1, maximum: MAX_VOUCHER_COUNT, description: `Number of codes, 1-${MAX_VOUCHER_COUNT}.` }),
  duration: Type.Integer({
    minimum: 1,
    maximum: MAX_DURATION_MINUTES,
    description: "Minutes of access per code, counted from its first login.",
  }),
  data_cap: Bytes("Bytes a code may use in all (all its devices and sessions); 0 or omitted: the location's daily cap."),
  bandwidth_up: Bytes("Upload limit in bytes per second; 0 or omitted: the location's."),
  bandwidth_down: Bytes("Download limit in bytes per second; 0 or omitted: the location's."),
  devices_per_code: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_DEVICES_PER_CODE, description: "Devices that may use one code (1 when omitted)." }),
  ),
  expires: Type.Optional(F.date("Last day (UTC) a code can be used; omitted: codes do not expire.")),
});

export const VoucherBatch = Type.Object({
  batch_id: Type.Integer(),
  location_ids: Type.Array(Type.Integer()),
  count: Type.Integer(),
  duration: Type.Integer({ description: "Minutes." }),
  data_cap: Type.Integer({ description: "Bytes; 0: none of its own." }),
  bandwidth_up: Type.Integer({ description: "Bytes per second; 0: the location's." }),
  bandwidth_down: Type.Integer({ description: "Bytes per second; 0: the location's." }),
  devices_per_code: Type.Integer(),
  expires: Type.String({ description: "Last day a code can be used (UTC), or \"\"." }),
  created_at: Datetime("Created"),
  unused: Type.Integer({ description: "Codes never used and not revoked." }),
  revoked: Type.Integer({ description: "Codes revoked." }),
});

export const CreateVoucherBatchResponse = Type.Object({
  status: Success,
  message: Type.String(),
  batch_id: Type.Integer(),
  data: VoucherBatch,
  codes: Type.Array(Type.String({ description: "A code as printed (4K7MP-XRT9C)." })),
  sheet_url: Type.String({ description: "The printable sheet of the batch (voucher-sheet)." }),
  warnings: Type.Array(Type.String(), {
    description: "Why the codes will not work at some of the batch's locations yet (their login page does not offer the voucher login); empty when they work everywhere.",
  }),
});

export const VoucherBatchListParams = Type.Object({
  identifier: F.identifier(),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: "Page, from 1." })),
  per_page: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_VOUCHER_PAGE, description: `Batches per page (${DEFAULT_VOUCHER_PAGE}).` }),
  ),
});

export const VoucherBatchListResponse = Type.Object({ status: Success, data: Type.Array(VoucherBatch), total: Type.Integer() });

export const VoucherListParams = Type.Object({
  identifier: F.identifier(),
  batch_id: Type.Optional(F.id("Only the codes of this batch.")),
  location_id: Type.Optional(F.id("Only codes that work at this location.")),
  status: Type.Optional(
    Type.Union(
      VOUCHER_STATUSES.map((s) => Type.Literal(s)),
      { description: `Only codes in this state: ${VOUCHER_STATUSES.join(", ")}.`, "x-error": "oneOf", "x-values": [...VOUCHER_STATUSES] },
    ),
  ),
  code: Type.Optional(F.text(32, "Only this code (as printed or typed).")),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: "Page, from 1." })),
  per_page: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_VOUCHER_PAGE, description: `Codes per page (${DEFAULT_VOUCHER_PAGE}).` }),
  ),
});

export const Voucher = Type.Object({
  voucher_id: Type.Integer(),
  batch_id: Type.Integer(),
  code: Type.String({ description: "As printed (4K7MP-XRT9C)." }),
  status: Type.String({ description: VOUCHER_STATUSES.join(", ") }),
  first_used_at: Datetime("First login with it"),
  ends_at: Datetime("When its time runs out (first use plus duration)"),
  revoked_at: Datetime("Revoked"),
  devices_used: Type.Integer(),
  bytes_used: Type.Integer({ description: "Octets used by all its sessions, as RADIUS accounting counts them." }),
});

export const VoucherListResponse = Type.Object({
  status: Success,
  data: Type.Array(Voucher),
  total: Type.Integer({ description: "Codes matching the filters, on every page." }),
  page: Type.Integer(),
  per_page: Type.Integer(),
});

export const RevokeVoucherParams = Type.Object({
  identifier: F.identifier(),
  voucher_id: Type.Optional(F.id("The code to revoke.")),
  batch_id: Type.Optional(F.id("Revoke every code of this batch.")),
});

export const RevokeVoucherResponse = Type.Object({ status: Success, message: Type.String(), revoked: Type.Integer() });

export const VoucherSheetParams = Type.Object({
  identifier: F.identifier(),
  batch_id: F.id("The batch to print."),
  paper: Type.Optional(Type.Union([Type.Literal("a4"), Type.Literal("letter")], { description: "a4 (default) or letter.", "x-error": "oneOf", "x-values": ["a4", "letter"] })),
  language: Type.Optional(
    Type.Union(
      LANGUAGE_TAGS.map((tag) => Type.Literal(tag)),
      { description: `The language of the cards' texts: ${LANGUAGE_TAGS.join(", ")} (default en).`, "x-error": "oneOf", "x-values": [...LANGUAGE_TAGS] },
    ),
  ),
});

export const VoucherSheetResponse = Type.Unsafe<import("node:stream").Readable>({ type: "string", format: "binary", description: "An HTML page of the batch's unused codes, to print." });
