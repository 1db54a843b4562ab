/**
 * Every built-in text of the messages guests and sub-users receive, and of the pages they open
 * from them (unsubscribe, survey), in one catalogue per language. An automation whose subject or
 * body is left empty uses its trigger's text here, in the guest's language when the catalogue has
 * it, else in English; its own translations (create-or-update-automation `translations`) come
 * first. Adding a language is adding an entry to MESSAGE_TEXTS.
 *
 * Placeholders: {{field}} or {{field|fallback}} (templates.ts); {venue}-style names in the page
 * texts are filled by the code that shows them.
 */
import type { AutomationTrigger } from "../outbox/outbox-triggers.js";

export interface MessageTexts {
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

const EN: MessageTexts = {
  automation: {
    welcome: {
      subject: "Welcome to {{location_name}}",
      body: "Hi {{first_name|there}},\n\nThanks for connecting to the WiFi at {{location_name}}. We hope you enjoy your visit.",
    },
    "visit-ended": {
      subject: "Thanks for visiting {{location_name}}",
      body: "Hi {{first_name|there}},\n\nThank you for your visit to {{location_name}}. We hope to see you again soon.",
    },
    absence: {
      subject: "We miss you at {{location_name}}",
      body: "Hi {{first_name|there}},\n\nIt has been a while since your last visit to {{location_name}}. We would love to see you again.",
    },
    birthday: {
      subject: "Happy birthday from {{location_name}}",
      body: "Hi {{first_name|there}},\n\nEveryone at {{location_name}} wishes you a happy birthday!",
    },
  },
  whyYouGetThis: "You receive this because you agreed to hear from {venue} when you used its WiFi.",
  unsubscribe: "Unsubscribe",
  smsStop: "Reply STOP to opt out.",
  survey: {
    question: "How likely are you to recommend {{location_name}} to a friend?",
    low: "0 = not at all likely",
    high: "10 = extremely likely",
    answerLink: "Answer in one click:",
  },
  review: "Tell others about your visit:",
  unsubscribePage: {
    title: "Unsubscribe",
    question: "Stop receiving messages from {venue}?",
    button: "Unsubscribe",
    done: "You are unsubscribed. You will receive no more messages from {venue}.",
    unknown: "This link is not valid. If you still receive messages, reply to them to ask the sender to stop.",
  },
  surveyPage: {
    title: "Your visit",
    scoreLabel: "Your answer (0 to 10)",
    commentLabel: "Anything you would like to tell us? (optional)",
    button: "Send",
    thanks: "Thank you for your answer.",
    unknown: "This survey link is not valid any more.",
    reviewInvite: "Would you also write a review?",
  },
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

/** The catalogue, by language code (lower case: "en", "fr", "pt-br"). */
export const MESSAGE_TEXTS: Readonly<Record<string, MessageTexts>> = { en: EN };

export const DEFAULT_LANGUAGE = "en";

/** The texts of `language` ("fr-ca" falls back to "fr", then English). */
export function textsFor(language: string): MessageTexts {
  const l = language.toLowerCase();
  return MESSAGE_TEXTS[l] ?? MESSAGE_TEXTS[l.split("-")[0]] ?? EN;
}

/** Fills {name} placeholders of a catalogue sentence. */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (m, k: string) => values[k] ?? m);
}
