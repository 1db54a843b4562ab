/**
 * The consent texts guests are shown (a campaign's terms and marketing opt-in text, in each of its
 * languages), kept by version so that a guest's record names the very text and when it was first
 * saved, not just "version d583767991f5f444". A version is 16 hex digits of the text's SHA-256, as
 * logins record it; a text is stored once, when the campaign that carries it is saved (never on a login).
 */
import { createHash } from "node:crypto";
import type { CampaignPayload } from "./campaign-payload.js";

/** A text's version as logins record it: 16 hex digits of its SHA-256 ("" for no text). */
export function textVersion(text: string): string {
  return text === "" ? "" : createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16);
}

export interface ConsentText {
  version: string;
  kind: "terms" | "marketing";
  text: string;
}

/** Every consent text a campaign's pages can show: the default language's and each translation's. */
export function consentTextsOf(p: CampaignPayload): ConsentText[] {
  const out = new Map<string, ConsentText>();
  const add = (kind: ConsentText["kind"], text: string | undefined) => {
    if (text) out.set(`${kind}\u0000${text}`, { version: textVersion(text), kind, text });
  };
  add("terms", p.custom_terms);
  add("marketing", p.consent?.marketing_text);
  for (const t of Object.values(p.translations ?? {})) {
    add("terms", t.custom_terms);
    add("marketing", t.marketing_text);
  }
  return [...out.values()];
}
