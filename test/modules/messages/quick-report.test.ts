/**
 * The quick report (real SMTP server): to each sub-user with it on, the day before against the
 * same weekday a week earlier, after QUICK_REPORT_HOUR in the location's time zone, once per day
 * however many instances queue it; the owner's weekly variant; the chart a valid PNG shown inline
 * by its Content-ID; the link to stop it, honoured at once. The clock is given, never waited for.
 */
import assert from "node:assert/strict";
import { crc32, inflateSync } from "node:zlib";
import { after, before, describe, it } from "node:test";
import { recordUsage } from "../../../src/modules/guests/guest-activity.service.js";
import { createMessageSender } from "../../../src/modules/messages/message-worker.js";
import { queueDueQuickReports } from "../../../src/modules/messages/quick-report.service.js";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { loginGuest, mailEnv, messagesOf } from "../../helpers/mail.js";
import { type SmtpServer, startSmtpServer } from "../../helpers/smtp-server.js";
import { makeLocation, subUserParams } from "../../helpers/sub-users.js";

const quiet = { warn() {}, info() {} };

/** A PNG's size, after checking every chunk's CRC and that the image data inflates to its rows. */
export function checkPng(png: Buffer): { width: number; height: number } {
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let at = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  while (at < png.length) {
    const len = png.readUInt32BE(at);
    const type = png.toString("ascii", at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + len);
    assert.equal(png.readUInt32BE(at + 8 + len), crc32(png.subarray(at + 4, at + 8 + len)), `CRC of ${type}`);
    if (type === "IHDR") [width, height] = [data.readUInt32BE(0), data.readUInt32BE(4)];
    if (type === "IDAT") idat.push(data);
    at += 12 + len;
  }
  assert.equal(inflateSync(Buffer.concat(idat)).length, (width * 3 + 1) * height);
  return { width, height };
}

for (const dialect of DIALECTS) {
  describe(`quick reports (${dialect})`, () => {
    let smtp: SmtpServer;
    let t: TestApp;
    let sender: ReturnType<typeof createMessageSender>;
    let loc: number;
    let staff: { id: number; email: string; identifier: string };
    // 2026-11-26 09:30 in Chicago (UTC-6): the daily report is of Wednesday 2026-11-25, against 2026-11-18.
    const now = new Date("2026-11-26T15:30:00Z");
    before(async () => {
      smtp = await startSmtpServer();
      t = await createTestApp(dialect, mailEnv(smtp, { PUBLIC_URL: "https://wifi.example.com", QUICK_REPORT_HOUR: "8" }));
      sender = createMessageSender(t.deps, t.config, quiet);
      loc = await makeLocation(t);
      const params = subUserParams(loc);
      const s = await t.call("POST", "create-sub-user", params);
      assert.equal(s.statusCode, 200, JSON.stringify(s.body));
      staff = { id: s.body.sub_user_id, email: String(params.email_address), identifier: s.body.identifier };
      await t.call("POST", "create-sub-user", subUserParams(loc, { quickreport: "0" }));
      // Wednesday 2026-11-25 (local): three logins at 18:xx, one at 09:xx, one new guest coming back; 2026-11-18: one login.
      const at = (iso: string) => new Date(iso);
      const regular = await loginGuest(t, loc, { optIn: false, email: "regular@example.org", at: at("2026-11-18T16:00:00Z") });
      await loginGuest(t, loc, { optIn: false, email: "regular@example.org", at: at("2026-11-26T00:10:00Z") });
      for (const m of ["a", "b"]) await loginGuest(t, loc, { optIn: false, email: `${m}@example.org`, at: at("2026-11-26T00:20:00Z") });
      await loginGuest(t, loc, { optIn: false, email: "morning@example.org", at: at("2026-11-25T15:05:00Z") });
      await recordUsage(t.db, { guestId: regular, locationId: loc, timezone: "America/Chicago", octets: 2_500_000_000, at: at("2026-11-25T20:00:00Z") });
    });
    after(async () => {
      sender.close();
      await t.close();
      await smtp.stop();
    });

    it("queues each report once, after the hour, whoever asks and how often", async () => {
      assert.equal(await queueDueQuickReports(t.deps, t.config, new Date("2026-11-26T13:30:00Z")), 0, "07:30 in Chicago: not yet");
      const owner = await t.call("POST", "set-quick-report", { quickreport: "1", frequency: "weekly", quickreport_location_id: loc });
      assert.equal(owner.statusCode, 200, JSON.stringify(owner.body));
      assert.deepEqual(owner.body.data, { ...owner.body.data, quickreport: 1, frequency: "weekly", quickreport_location_id: loc });
      const runs = await Promise.all([1, 2, 3].map(() => queueDueQuickReports(t.deps, t.config, now)));
      assert.equal(runs.reduce((a, b) => a + b, 0), 2, `two reports in all: ${runs}`);
      assert.equal(await queueDueQuickReports(t.deps, t.config, new Date("2026-11-26T22:00:00Z")), 0, "later that day: nothing more");
      const reports = await messagesOf(t, { kind: "quick-report" });
      assert.deepEqual(reports.map((m) => m.recipient).sort(), [staff.email, owner.body.data.email].sort());
    });

    it("reports the day against a week before, with an inline PNG chart and the links", async () => {
      const mails = await (async () => {
        await sender.pass();
        return smtp.waitFor(2);
      })();
      const daily = mails.find((m) => /Quick report for 2026-11-25/.test(m.mail.subject ?? ""))!;
      assert.ok(daily, mails.map((m) => m.mail.subject).join(" | "));
      const text = daily.mail.text ?? "";
      assert.match(text, /^Logins: 4 \(A week before: 1, \+300 %\)$/m);
      assert.match(text, /^Visits: 4 \(A week before: 1, \+300 %\)$/m);
      assert.match(text, /^New guests: 3 \(A week before: 1, \+200 %\)$/m);
      assert.match(text, /^Returning guests: 1 \(A week before: 0, new\)$/m);
      assert.match(text, /^Data used: 2\.5 GB \(A week before: 0 B, new\)$/m);
      assert.match(text, /^Busiest hour: 18:00-19:00 \(3\) \(A week before: 10:00-11:00 \(1\)\)$/m);
      assert.match(text, /https:\/\/wifi\.example\.com\/console/);
      const chart = daily.mail.attachments.find((a) => a.contentType === "image/png")!;
      assert.ok(chart, "a PNG attached");
      assert.equal(chart.contentDisposition, "inline");
      assert.ok((daily.mail.html || "").includes(`src="cid:${chart.contentId?.replace(/[<>]/g, "") ?? ""}"`) || (daily.mail.html || "").includes("data:image/png"), "shown by its Content-ID");
      assert.deepEqual(checkPng(chart.content), { width: 600, height: 220 });
      const weekly = mails.find((m) => /Weekly report 2026-11-16 to 2026-11-22/.test(m.mail.subject ?? ""));
      assert.ok(weekly, mails.map((m) => m.mail.subject).join(" | "));
      assert.match(weekly.mail.text ?? "", /^Busiest day: /m);
    });

    it("stops at once when the recipient follows the link, and a sub-user may turn it on again itself", async () => {
      const [mail] = (await smtp.received()).filter((m) => /Quick report/.test(m.mail.subject ?? ""));
      const url = /Stop these reports: (\S+)/.exec(mail.mail.text ?? "")![1];
      const r = await t.app.inject({ method: "POST", url: new URL(url).pathname, payload: "List-Unsubscribe=One-Click", headers: { "content-type": "application/x-www-form-urlencoded" } });
      assert.equal(r.statusCode, 200);
      const listed = (await t.call("GET", "subuser-list")).body.data.find((s: any) => s.id === staff.id);
      assert.equal(listed.quickreport, 0);
      assert.equal(await queueDueQuickReports(t.deps, t.config, new Date("2026-11-27T15:30:00Z")), 0, "the next day: none (the sub-user stopped; the owner's weekly report of that week went)");
      const own = await t.call("POST", "set-quick-report", { quickreport: "1", identifier: staff.identifier });
      assert.equal(own.statusCode, 200, JSON.stringify(own.body));
      assert.equal(own.body.data.quickreport, 1);
      const refused = await t.call("POST", "set-quick-report", { quickreport: "1", quickreport_location_id: loc, identifier: staff.identifier });
      assert.equal(refused.statusCode, 400);
      assert.ok(refused.body.message.quickreport_location_id);
    });
  });
}
