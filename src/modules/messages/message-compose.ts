/**
 * An automation's message as the guest receives it: the template in the guest's language with the
 * guest's fields, then (e-mail) the survey's one-click scores, the review link and the footer with
 * a visible unsubscribe link, plus List-Unsubscribe and List-Unsubscribe-Post (RFC 8058); (text)
 * the survey link and the STOP note. Links go straight where they say: no tracking pixel, no
 * rewritten link.
 */
import type { Config, MailConfig } from "../../config.js";
import { html, type SafeHtml } from "../../http/html.js";
import type { GuestRow } from "../guests/guests.repository.js";
import type { LocationRow } from "../locations/locations.repository.js";
import type { AutomationTrigger } from "../outbox/outbox-triggers.js";
import type { AutomationRow } from "./automations.repository.js";
import { translationsOf } from "./automations.service.js";
import { composeMail, newMessageId } from "./mail-transport.js";
import { translate } from "../../i18n/catalogue.js";
import { directionOf } from "../../i18n/languages.js";
import { DEFAULT_LANGUAGE, MESSAGE_TEXTS, catalogueLanguage } from "./message-texts.js";
import { signToken } from "./message-tokens.js";
import { pickLanguage, renderTemplate, templateValues } from "./templates.js";

export interface Composed {
  recipient: string;
  subject: string;
  language: string;
  /** The MIME message (e-mail) or the text (text message). */
  content: string;
}

export function unsubscribeUrl(config: Readonly<Config>, key: Buffer, messageId: number): string {
  return `${config.publicUrl}/unsubscribe/${signToken(key, "u", messageId)}`;
}

export function surveyUrl(config: Readonly<Config>, key: Buffer, messageId: number): string {
  return `${config.publicUrl}/survey/${signToken(key, "s", messageId)}`;
}

/**
 * The texts of the automation in the guest's language: its own translation for that language, else
 * its own text, else the catalogue's (in that language when it has it). `catalogue`: the language of
 * the built-in parts (footer, survey, STOP note).
 */
function chooseTexts(a: AutomationRow, locale: string): { language: string; catalogue: string; subject: string; body: string } {
  const translations = translationsOf(a);
  const own = pickLanguage(locale, Object.keys(translations));
  const catalogue = (catalogueLanguage(locale) ?? DEFAULT_LANGUAGE).toLowerCase();
  const builtIn = MESSAGE_TEXTS[catalogue].automation[a.trigger as AutomationTrigger];
  return {
    language: own ?? (a.subject || a.body ? "" : MESSAGE_TEXTS[catalogue].tag),
    catalogue,
    subject: (own && translations[own].subject) || a.subject || builtIn.subject,
    body: (own && translations[own].body) || a.body || builtIn.body,
  };
}

/** Plain text as HTML paragraphs, with http(s) URLs as links to themselves. */
function paragraphs(text: string): SafeHtml[] {
  return text
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map((p) => {
      const parts = p.split(/(https?:\/\/[^\s<>"]+)/g);
      return html`<p>${parts.map((part, i) => (i % 2 === 1 ? html`<a href="${part}">${part}</a>` : html`${part.split("\n").map((line, j) => (j > 0 ? html`<br>${line}` : line))}`))}</p>`;
    });
}

export async function composeAutomationMessage(
  config: Readonly<Config>,
  key: Buffer,
  messageId: number,
  a: AutomationRow,
  guest: GuestRow,
  location: LocationRow,
): Promise<Composed> {
  const chosen = chooseTexts(a, guest.locale);
  const texts = MESSAGE_TEXTS[chosen.catalogue];
  const values = templateValues(guest, location, a.review_url);
  const subject = renderTemplate(chosen.subject, values).replace(/\s+/g, " ").trim().slice(0, 255);
  const body = renderTemplate(chosen.body, values).trim();
  const survey = a.survey === 1 ? surveyUrl(config, key, messageId) : undefined;
  const question = survey ? renderTemplate(a.survey_question || texts.survey.question, values) : "";

  if (a.channel === "sms") {
    const text = [body, survey ? `${question} ${survey}` : "", a.review_url ? `${texts.review} ${a.review_url}` : "", texts.smsStop].filter((s) => s !== "").join("\n");
    return { recipient: guest.phone_number, subject, language: chosen.language, content: text };
  }

  const mail = config.mail as MailConfig;
  const unsubscribe = unsubscribeUrl(config, key, messageId);
  const why = translate(texts.tag, "mail.whyYouGetThis", { venue: location.name });
  const scores = Array.from({ length: 11 }, (_, n) => n);
  const text = [
    body,
    survey ? `${question}\n${texts.survey.answerLink}\n${scores.map((n) => `${n}: ${survey}?score=${n}`).join("\n")}` : "",
    a.review_url ? `${texts.review} ${a.review_url}` : "",
    `--\n${why}\n${texts.unsubscribe}: ${unsubscribe}`,
  ]
    .filter((s) => s !== "")
    .join("\n\n");
  const page = html`<!doctype html><html lang="${texts.tag}"${directionOf(texts.tag) === "rtl" ? html` dir="rtl"` : ""}><head><meta charset="utf-8"><title>${subject}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#1f2933;max-width:600px">
${paragraphs(body)}
${
  survey
    ? html`<p><strong>${question}</strong></p>
<p>${scores.map((n) => html`<a href="${survey}?score=${n}" style="display:inline-block;min-width:28px;padding:6px 4px;margin:2px;border:1px solid #52606d;border-radius:4px;text-align:center;color:#1f2933;text-decoration:none">${n}</a>`)}</p>
<p style="font-size:13px;color:#52606d">${texts.survey.low} · ${texts.survey.high}</p>`
    : ""
}
${a.review_url ? html`<p>${texts.review} <a href="${a.review_url}">${a.review_url}</a></p>` : ""}
<hr style="border:0;border-top:1px solid #cbd2d9">
<p style="font-size:13px;color:#52606d">${why} <a href="${unsubscribe}">${texts.unsubscribe}</a></p>
</body></html>`;
  const content = await composeMail(mail, newMessageId(mail, messageId), {
    to: guest.email,
    subject,
    text,
    html: page.value,
    headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  });
  return { recipient: guest.email, subject, language: chosen.language, content };
}
