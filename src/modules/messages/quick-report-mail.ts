/**
 * The quick report as an e-mail: a table of the period's figures against the week before, a bar
 * chart (a PNG drawn here, attached inline and shown through its Content-ID), a link to the console
 * and one to stop the reports (also as List-Unsubscribe, one click).
 */
import type { Config } from "../../config.js";
import { html } from "../../http/html.js";
import type { Overview } from "../analytics/overview.service.js";
import { addDays, weekdayOf } from "../guests/local-day.js";
import { composeMail, newMessageId } from "./mail-transport.js";
import { unsubscribeUrl } from "./message-compose.js";
import { STAFF_TEXTS, fill } from "./message-texts.js";
import { barChartPng } from "./raster.js";

export type Frequency = "daily" | "weekly";
export const FREQUENCIES: readonly Frequency[] = ["daily", "weekly"];

/** The days a report covers (a day, or a week from Monday to Sunday). */
export interface Period {
  frequency: Frequency;
  from: string;
  to: string;
}

export interface ReportFigures {
  period: Period;
  locations: string[];
  current: Overview;
  before: Overview;
}

interface Row {
  label: string;
  current: string;
  before: string;
  change: string;
  indent?: boolean;
}

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

export function formatBytes(n: number): string {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let v = n;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(v >= 100 ? 0 : 1)} ${units[u]}`;
}

/** "+12 %", "-5 %", "new" (from nothing), "" (nothing either time). */
export function change(current: number, before: number): string {
  if (before === 0) return current === 0 ? "" : "new";
  const pct = Math.round(((current - before) / before) * 100);
  return `${pct > 0 ? "+" : ""}${pct} %`;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** Logins per local hour of a one-day overview (its weekday's row of the hour-of-week counts). */
function hoursOf(o: Overview): number[] {
  const w = weekdayOf(o.days[0]);
  return o.hours.slice(w * 24, w * 24 + 24);
}

function busiest(values: number[]): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] > values[best]) best = i;
  return best;
}

const hourText = (h: number, n: number) => (n === 0 ? "-" : `${String(h).padStart(2, "0")}:00-${String((h + 1) % 24).padStart(2, "0")}:00 (${n})`);

/** The table's rows. */
export function reportRows(f: ReportFigures): Row[] {
  const t = STAFF_TEXTS.quickReport;
  const { current: c, before: b } = f;
  const row = (label: string, x: number, y: number, fmt: (n: number) => string = String, indent = false): Row => ({
    label,
    current: fmt(x),
    before: fmt(y),
    change: change(x, y),
    indent,
  });
  const rows = [row(t.logins, c.totals.logins, b.totals.logins)];
  c.logins.forEach((series, i) => {
    const x = sum(series.data);
    const y = sum(b.logins[i].data);
    if (x > 0 || y > 0) rows.push(row(series.name, x, y, String, true));
  });
  rows.push(row(t.visits, c.totals.visits, b.totals.visits));
  rows.push(row(t.newGuests, c.totals.newGuests, b.totals.newGuests));
  rows.push(row(t.returningGuests, c.totals.returningGuests, b.totals.returningGuests));
  rows.push(row(t.dataUsed, c.totals.usageBytes, b.totals.usageBytes, formatBytes));
  if (f.period.frequency === "daily") {
    const [hc, hb] = [hoursOf(c), hoursOf(b)];
    const [ic, ib] = [busiest(hc), busiest(hb)];
    rows.push({ label: t.busiestHour, current: hourText(ic, hc[ic]), before: hourText(ib, hb[ib]), change: "" });
  } else {
    const [ic, ib] = [busiest(c.visits), busiest(b.visits)];
    const dayText = (o: Overview, i: number) => (o.visits[i] === 0 ? "-" : `${WEEKDAYS[weekdayOf(o.days[i])]} ${o.days[i]} (${o.visits[i]})`);
    rows.push({ label: t.busiestDay, current: dayText(c, ic), before: dayText(b, ib), change: "" });
  }
  return rows;
}

/** The chart: logins per hour (daily) or visits per day (weekly), dark this period, light the one before. */
export function reportChart(f: ReportFigures): Buffer {
  if (f.period.frequency === "daily") {
    return barChartPng({ labels: Array.from({ length: 24 }, (_, h) => String(h)), current: hoursOf(f.current), before: hoursOf(f.before), labelEvery: 3 });
  }
  return barChartPng({ labels: f.current.days.map((d) => String(Number(d.slice(8)))), current: f.current.visits, before: f.before.visits, labelEvery: 1 });
}

export async function composeQuickReport(
  config: Readonly<Config>,
  key: Buffer,
  messageId: number,
  to: string,
  f: ReportFigures,
  at: Date,
): Promise<{ subject: string; content: string }> {
  const mail = config.mail!;
  const t = STAFF_TEXTS.quickReport;
  const daily = f.period.frequency === "daily";
  const names = f.locations.join(", ");
  const locations = names.length > 80 ? `${names.slice(0, 77)}...` : names;
  const before = { from: addDays(f.period.from, -7), to: addDays(f.period.to, -7) };
  const subject = daily
    ? fill(t.subjectDaily, { day: f.period.from, locations })
    : fill(t.subjectWeekly, { from: f.period.from, to: f.period.to, locations });
  const intro = daily ? fill(t.intro, { day: f.period.from, before: before.from }) : fill(t.introWeekly, { from: f.period.from, to: f.period.to });
  const heads = daily ? [t.columns.current, t.columns.before] : [`${f.period.from} - ${f.period.to}`, `${before.from} - ${before.to}`];
  const rows = reportRows(f);
  const consoleUrl = `${config.publicUrl}/console`;
  const stop = unsubscribeUrl(config, key, messageId);
  const why = fill(t.why, { email: to });
  const alt = daily ? t.chartAlt : t.chartAltWeekly;
  const legend = fill(t.legendCurrent, { current: heads[0], before: heads[1] });
  const text = [
    subject,
    intro,
    rows.map((r) => `${r.indent ? "  " : ""}${r.label}: ${r.current} (${heads[1]}: ${r.before}${r.change ? `, ${r.change}` : ""})`).join("\n"),
    `${t.openConsole}: ${consoleUrl}`,
    `--\n${why}\n${t.stop}: ${stop}`,
  ].join("\n\n");
  const cell = "padding:4px 10px;border-bottom:1px solid #e4e7eb;text-align:right";
  const page = html`<!doctype html><html><head><meta charset="utf-8"><title>${subject}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#1f2933;max-width:640px">
<h1 style="font-size:20px">${locations}</h1>
<p>${intro}</p>
<table style="border-collapse:collapse;font-size:14px">
<thead><tr><th style="text-align:left;padding:4px 10px">${t.columns.figure}</th><th style="${cell}">${heads[0]}</th><th style="${cell}">${heads[1]}</th><th style="${cell}">${t.columns.change}</th></tr></thead>
<tbody>${rows.map(
    (r) =>
      html`<tr><td style="padding:4px 10px;border-bottom:1px solid #e4e7eb${r.indent ? ";padding-left:26px;color:#52606d" : ""}">${r.label}</td><td style="${cell}">${r.current}</td><td style="${cell}">${r.before}</td><td style="${cell}">${r.change}</td></tr>`,
  )}</tbody>
</table>
<p><img src="cid:chart@quick-report" width="600" height="220" alt="${alt}"></p>
<p style="font-size:13px;color:#52606d">${alt}. ${legend}</p>
<p><a href="${consoleUrl}">${t.openConsole}</a></p>
<hr style="border:0;border-top:1px solid #cbd2d9">
<p style="font-size:13px;color:#52606d">${why} <a href="${stop}">${t.stop}</a></p>
</body></html>`;
  const content = await composeMail(
    mail,
    newMessageId(mail, messageId),
    {
      to,
      subject,
      text,
      html: page.value,
      headers: { "List-Unsubscribe": `<${stop}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      inline: [{ cid: "chart@quick-report", filename: "chart.png", contentType: "image/png", content: reportChart(f) }],
    },
    at,
  );
  return { subject, content };
}

