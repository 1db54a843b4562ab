/** Shared steps of the campaign tests: the built-in templates and a campaign made through the API. */
import assert from "node:assert/strict";
import type { TestApp } from "../../helpers/app.js";

export const RECORD_KEYS = [
  "background",
  "campaign_filename",
  "campaign_id",
  "campaign_url",
  "custom_terms",
  "date_created",
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
