/**
 * The guest export (social-user-export): social-user-list's guests as a CSV stream, one row per
 * guest and location, in constant memory whatever the number of rows. The database is read in
 * pages by keyset (location, then guest id after the last one written), each page becomes one chunk
 * of text, and the next page is read only when the client has taken the previous one (a pull
 * stream: a slow download holds one page, not the export).
 */
import { Readable } from "node:stream";
import type { Ctx } from "../context.js";
import { csvRow } from "./csv.js";
import { LOGIN_TYPES } from "./login-types.js";
import type { GuestExportRow } from "./guests.repository.js";
import type { GuestListQuery } from "./guests.service.js";

/** Rows per database page: large enough that a page costs far more than its round trip. */
export const EXPORT_PAGE_ROWS = 2000;

export const EXPORT_COLUMNS = [
  "social_user_id",
  "name",
  "email",
  "phone",
  "mac",
  "location_id",
  "location",
  "login_type",
  "login_type_name",
  "first_seen_utc",
  "last_seen_utc",
  "visits",
  "data_used_bytes",
  "marketing_opt_in",
  "marketing_opt_in_utc",
  "marketing_version",
] as const;

export interface GuestExport {
  /** The CSV, header row first; fails (mid-stream) if the database does. */
  stream: Readable;
}

/**
 * Opens the export: reads the first page before answering, so that a database that is down fails
 * the call with the usual error instead of a started download. Locations in order of id.
 */
export async function openGuestExport(ctx: Ctx, accountId: number, q: GuestListQuery, pageRows = EXPORT_PAGE_ROWS): Promise<GuestExport> {
  const locations = [...q.locations].sort((a, b) => a.id - b.id);
  const page = (locationId: number, afterGuestId: number) =>
    ctx.repos.guests.exportPage(ctx.db, {
      accountId,
      locationId,
      fromDay: q.fromDay,
      toDay: q.toDay,
      campaignId: q.campaign?.id,
      loginType: q.loginType,
      afterGuestId,
      limit: pageRows,
    });
  const first = locations.length > 0 ? await page(locations[0].id, 0) : [];

  async function* chunks(): AsyncGenerator<string> {
    yield csvRow(EXPORT_COLUMNS);
    for (let i = 0; i < locations.length; i++) {
      const location = locations[i];
      let rows = i === 0 ? first : await page(location.id, 0);
      while (rows.length > 0) {
        let text = "";
        for (const r of rows) text += rowText(r, location.id, location.name);
        yield text;
        if (rows.length < pageRows) break;
        rows = await page(location.id, rows[rows.length - 1].guest_id);
      }
    }
  }
  // objectMode false: the chunks are text, and the high-water mark counts bytes.
  return { stream: Readable.from(chunks(), { objectMode: false }) };
}

/** The login type's name beside its code (E-mail beside Muser), as the console shows it. */
const LOGIN_TYPE_NAMES = new Map<string, string>(LOGIN_TYPES.map((t) => [t.code, t.series]));

function rowText(r: GuestExportRow, locationId: number, locationName: string): string {
  return csvRow([
    r.guest_id,
    r.full_name,
    r.email,
    r.phone_number,
    r.last_mac ?? "",
    locationId,
    locationName,
    r.social_network,
    LOGIN_TYPE_NAMES.get(r.social_network) ?? r.social_network,
    r.first_login_at,
    r.last_login_at ?? "",
    Number(r.visit_days),
    String(r.octets),
    Number(r.marketing_opt_in),
    r.marketing_opt_in_at ?? "",
    r.marketing_version,
  ]);
}
