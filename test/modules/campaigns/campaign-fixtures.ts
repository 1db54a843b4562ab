/** Shared steps of the campaign tests: the built-in templates and a campaign made through the API. */
import assert from "node:assert/strict";
import { deflateSync } from "node:zlib";
import type { TestApp } from "../../helpers/app.js";

export const RECORD_KEYS = [
  "background",
  "button_text",
  "campaign_filename",
  "campaign_id",
  "campaign_url",
  "custom_terms",
  "date_created",
  "default_language",
  "deleted",
  "footer_text",
  "id",
  "last_modified",
  "login_custom",
  "login_facebook",
  "login_instagram",
  "login_linkedin",
  "login_options",
  "login_twitter",
  "logo_url",
  "marketing_opt_in",
  "marketing_text",
  "name",
  "payload",
  "redirect_url",
  "ssid",
  "template",
  "terms_required",
  "text_color",
  "title_text",
  "translations",
];

/** Id of the built-in template with this name, as campaign-list shows it. */
export async function templateId(t: TestApp, name: "CustomFormLogin" | "SocialLogin" | "ClickThrough"): Promise<number> {
  const list = await t.call("GET", "campaign-list");
  const tpl = list.body.data.find((c: { name: string; template: number }) => c.name === name && c.template === 1);
  assert.ok(tpl, `template ${name} not listed`);
  return tpl.id;
}

/** A campaign of the account behind `identifier` (first account by default), copied from the custom-form template. */
export async function makeCampaign(t: TestApp, params: Record<string, unknown> = {}, identifier?: string): Promise<any> {
  const res = await t.call(
    "POST",
    "create-or-update-campaign",
    { name: "Campaign", template_campaign_id: await templateId(t, "CustomFormLogin"), ...params },
    { identifier },
  );
  assert.equal(res.statusCode, 200, JSON.stringify(res.body));
  return res.body;
}

/** A real 1x1 PNG, for logos. */
export const PNG_1X1 = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

function crc32(b: Buffer): number {
  let c = ~0;
  for (const byte of b) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** A real PNG of `width` x `height` pixels: a band of `rgb` over white, for a logo one can see in screenshots. */
export function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3, 255);
    row[0] = 0;
    const band = y > height / 4 && y < (height * 3) / 4;
    for (let x = 0; x < width && band; x++) row.set(rgb, 1 + x * 3);
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
