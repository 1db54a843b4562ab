import { Readable } from "node:stream";
import { msg } from "../../errors.js";
import { type ApiRouter, ok } from "../../http/api-route.js";
import type { Ctx } from "../context.js";
import { liveLocation, ownedLocation } from "../locations/locations.refs.js";
import { translator } from "../../i18n/catalogue.js";
import { voucherSheetHtml } from "./voucher-sheet.js";
import { ownBatch, ownVoucher } from "./vouchers.refs.js";
import * as S from "./vouchers.schemas.js";
import * as vouchers from "./vouchers.service.js";

const tags = ["Vouchers"];

const todayUtc = () => new Date().toISOString().slice(0, 10);

export function voucherRoutes(api: ApiRouter<Ctx>): void {
  api.route({
    method: "POST",
    url: "/api/create-voucher-batch",
    summary: "Create a batch of voucher codes for some locations, with their duration and limits",
    description:
      "Codes are 10 characters without look-alikes, answered as printed (4K7MP-XRT9C). A code's duration counts from its first " +
      "login; its own rates and data cap replace the location's in the RADIUS reply and the controller's grant.",
    tags,
    access: "write",
    params: S.CreateVoucherBatchParams,
    refs: { location_ids: liveLocation.list(S.MAX_VOUCHER_LOCATIONS) },
    checks: [
      ({ p, fail }) => {
        if (p.expires !== undefined && p.expires < todayUtc()) fail("expires", msg.dateAfter("expires", "today"));
      },
    ],
    response: S.CreateVoucherBatchResponse,
    handler: async ({ ctx, caller, config }, p, r) => {
      const { batch, codes } = await vouchers.createVoucherBatch(ctx, caller.accountId, r.location_ids, {
        count: p.count,
        durationMinutes: p.duration,
        dataCap: p.data_cap ?? 0,
        bandwidthUp: p.bandwidth_up ?? 0,
        bandwidthDown: p.bandwidth_down ?? 0,
        devicesPerCode: p.devices_per_code ?? 1,
        expires: p.expires ?? null,
      });
      const warnings = vouchers.voucherWarnings(await vouchers.venuesOf(ctx, r.location_ids));
      return ok({
        message: "Voucher batch has been created successfully.",
        batch_id: batch.batch_id,
        data: batch,
        codes,
        sheet_url: `${config.publicUrl}/api/voucher-sheet?batch_id=${batch.batch_id}`,
        warnings,
      });
    },
  });

  api.route({
    method: "GET",
    url: "/api/voucher-batch-list",
    summary: "The account's voucher batches, newest first, with their unused and revoked codes counted",
    tags,
    access: "read",
    params: S.VoucherBatchListParams,
    response: S.VoucherBatchListResponse,
    handler: async ({ ctx, caller }, p) => ok(await vouchers.listVoucherBatches(ctx, caller.accountId, p.page ?? 1, p.per_page ?? S.DEFAULT_VOUCHER_PAGE, caller.locationScope)),
  });

  api.route({
    method: "GET",
    url: "/api/voucher-list",
    summary: "The account's voucher codes, in order of id, filtered by batch, location, status or code, in pages",
    tags,
    access: "read",
    params: S.VoucherListParams,
    refs: { batch_id: ownBatch.one(), location_id: ownedLocation.one() },
    response: S.VoucherListResponse,
    handler: async ({ ctx, caller }, p) => {
      const page = p.page ?? 1;
      const perPage = p.per_page ?? S.DEFAULT_VOUCHER_PAGE;
      const filter = {
        batchId: p.batch_id,
        locationId: p.location_id,
        status: p.status,
        code: p.code === undefined ? undefined : vouchers.codeFilter(p.code),
        scope: caller.locationScope,
      };
      const { data, total } = await vouchers.listVouchers(ctx, caller.accountId, filter, page, perPage);
      return ok({ data, total, page, per_page: perPage });
    },
  });

  api.route({
    method: "POST",
    url: "/api/revoke-voucher",
    summary: "Revoke one voucher code (voucher_id) or every code of a batch (batch_id): they stop working at once",
    description: "Guests already online keep their session until the gateway asks again; no new login or RADIUS request is accepted.",
    tags,
    access: "write",
    params: S.RevokeVoucherParams,
    refs: { batch_id: ownBatch.one("update"), voucher_id: ownVoucher.one("update") },
    checks: [
      ({ given, fail }) => {
        if (given("voucher_id") === given("batch_id")) fail("voucher_id", "Give either voucher_id or batch_id.");
      },
    ],
    response: S.RevokeVoucherResponse,
    handler: async ({ ctx, caller }, _p, r) => {
      const target = r.voucher_id ? { voucherId: r.voucher_id.id } : { batchId: r.batch_id!.id };
      const revoked = await vouchers.revokeVouchers(ctx, caller.accountId, target);
      return ok({ message: revoked === 1 ? "1 voucher has been revoked." : `${revoked} vouchers have been revoked.`, revoked });
    },
  });

  api.route({
    method: "GET",
    url: "/api/voucher-sheet",
    summary: "A printable HTML sheet (A4 or Letter) of a batch's codes that were never used nor revoked",
    tags,
    access: "read",
    params: S.VoucherSheetParams,
    refs: { batch_id: ownBatch.one() },
    response: S.VoucherSheetResponse,
    produces: ["text/html"],
    handler: async ({ ctx, caller, reply }, p, r) => {
      const batch = r.batch_id;
      const [codes, venues] = await Promise.all([
        vouchers.printableCodes(ctx, batch.id),
        vouchers.batchLocationRows(ctx, caller.accountId, batch.id).then((rows) => vouchers.venuesOf(ctx, rows)),
      ]);
      const tr = translator(p.language ?? "en");
      const details = [tr.t("voucher.minutes", { minutes: batch.duration_minutes })];
      if (batch.devices_per_code > 1) details.push(tr.t("voucher.devices", { devices: batch.devices_per_code }));
      if (Number(batch.data_cap) > 0) details.push(tr.t("voucher.megabytes", { mb: Math.round(Number(batch.data_cap) / 1_000_000) }));
      const html = voucherSheetHtml({
        tr,
        title: tr.t("voucher.title"),
        venues,
        details,
        codes,
        paper: p.paper ?? "a4",
        expires: batch.expires_at ? batch.expires_at.slice(0, 10) : "",
      });
      reply
        .header("content-type", "text/html; charset=utf-8")
        .header("content-disposition", `inline; filename="vouchers-${batch.id}.html"`)
        .header("cache-control", "no-store")
        .header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:");
      return Readable.from([html]);
    },
  });
}
