/**
 * Every built-in text of the messages guests receive, and of the pages they open from them
 * (unsubscribe, survey), in each shipped language: read from the catalogues under locales/
 * (src/i18n, docs/languages.md), the same ones the portal's pages use. An automation whose subject
 * or body is left empty uses its trigger's text here, in the guest's language when the catalogue
 * has it, else in English; its own translations (create-or-update-automation `translations`) come
 * first. The quick report and the test e-mail go to the account's own staff and stay in English.
 *
 * Placeholders: {{field}} or {{field|fallback}} in the automation texts (templates.ts); ICU
 * arguments ({venue}) in the others, formatted by the catalogue (`translate` of src/i18n).
 */
import { rawText } from "../../i18n/catalogue.js";
import { DEFAULT_LANGUAGE as DEFAULT_TAG, LANGUAGE_TAGS } from "../../i18n/languages.js";
import { lookupRange } from "../../i18n/negotiate.js";
import { AUTOMATION_TRIGGERS, type AutomationTrigger } from "../outbox/outbox-triggers.js";

export interface MessageTexts {
  /** The catalogue's language tag ("zh-Hans"). */
  tag: string;
  automation: Record<AutomationTrigger, { subject: string; body: string }>;
  /** Above the unsubscribe link of every marketing e-mail. {venue}: the location's name. */
  whyYouGetThis: string;
  unsubscribe: string;
  /** The end of every marketing text message. */
  smsStop: string;
  survey: { question: string; low: string; high: string; answerLink: string };
  review: string;
  unsubscribePage: { title: string; question: string; button: string; done: string; unknown: string };
  surveyPage: { title: string; scoreLabel: string; commentLabel: string; button: string; thanks: string; unknown: string; reviewInvite: string };
}

/** The staff's messages (English only). */
export interface StaffTexts {
  quickReport: {
    subjectDaily: string;
    subjectWeekly: string;
    intro: string;
    introWeekly: string;
    columns: { figure: string; current: string; before: string; change: string };
    logins: string;
    visits: string;
    newGuests: string;
    returningGuests: string;
    dataUsed: string;
    busiestHour: string;
    busiestDay: string;
    chartAlt: string;
    chartAltWeekly: string;
    legendCurrent: string;
    legendBefore: string;
    openConsole: string;
    why: string;
    stop: string;
  };
  testMail: { subject: string; body: string };
}

function guestTexts(tag: string): MessageTexts {
  const r = (key: string) => rawText(tag, key);
  return {
    tag,
    automation: Object.fromEntries(
      AUTOMATION_TRIGGERS.map((t) => [t, { subject: r(`template.${t}.subject`), body: r(`template.${t}.body`) }]),
    ) as Record<AutomationTrigger, { subject: string; body: string }>,
    whyYouGetThis: r("mail.whyYouGetThis"),
    unsubscribe: r("mail.unsubscribe"),
    smsStop: r("mail.smsStop"),
    survey: { question: r("template.surveyQuestion"), low: r("mail.surveyLow"), high: r("mail.surveyHigh"), answerLink: r("mail.surveyAnswerLink") },
    review: r("mail.review"),
    unsubscribePage: {
      title: r("unsubscribePage.title"),
      question: r("unsubscribePage.question"),
      button: r("unsubscribePage.button"),
      done: r("unsubscribePage.done"),
      unknown: r("unsubscribePage.unknown"),
    },
    surveyPage: {
      title: r("surveyPage.title"),
      scoreLabel: r("surveyPage.scoreLabel"),
      commentLabel: r("surveyPage.commentLabel"),
      button: r("surveyPage.button"),
      thanks: r("surveyPage.thanks"),
      unknown: r("surveyPage.unknown"),
      reviewInvite: r("surveyPage.reviewInvite"),
    },
  };
}

const STAFF_EN: StaffTexts = {
  quickReport: {
    subjectDaily: "Quick report for {day}: {locations}",
    subjectWeekly: "Weekly report {from} to {to}: {locations}",
    intro: "Yesterday ({day}) against the same weekday a week before ({before}).",
    introWeekly: "The week of {from} to {to} against the week before.",
    columns: { figure: "", current: "Yesterday", before: "A week before", change: "Change" },
    logins: "Logins",
    visits: "Visits",
    newGuests: "New guests",
    returningGuests: "Returning guests",
    dataUsed: "Data used",
    busiestHour: "Busiest hour",
    busiestDay: "Busiest day",
    chartAlt: "Logins per hour, yesterday against a week before",
    chartAltWeekly: "Logins per day, this week against the week before",
    legendCurrent: "Dark bars: {current}. Light bars: {before}.",
    legendBefore: "",
    openConsole: "Open the console",
    why: "You receive this report because the quick report is on for {email}.",
    stop: "Stop these reports",
  },
  testMail: {
    subject: "Test e-mail from your guest WiFi service",
    body: "This is a test e-mail sent from {service}. If you can read it, outgoing e-mail works.",
  },
};

/** The catalogue, by language code in lower case ("en", "zh-hans"). */
export const MESSAGE_TEXTS: Readonly<Record<string, MessageTexts>> = Object.fromEntries(LANGUAGE_TAGS.map((tag) => [tag.toLowerCase(), guestTexts(tag)]));

export const DEFAULT_LANGUAGE = DEFAULT_TAG;

export const STAFF_TEXTS: StaffTexts = STAFF_EN;

/** The shipped language for a guest's locale ("fr_CA", "zh-CN", "pt-br"), by RFC 4647 lookup; undefined when none suits. */
export function catalogueLanguage(locale: string): string | undefined {
  const range = locale.trim().replace(/_/g, "-");
  return /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(range) ? lookupRange(range, LANGUAGE_TAGS) : undefined;
}

/** The texts of `language` ("fr-ca" falls back to "fr", then English). */
export function textsFor(language: string): MessageTexts {
  return MESSAGE_TEXTS[(catalogueLanguage(language) ?? DEFAULT_TAG).toLowerCase()];
}

/** Fills {name} placeholders of a staff text (the guests' texts are formatted by the catalogue: `translate`). */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (m, k: string) => values[k] ?? m);
}
