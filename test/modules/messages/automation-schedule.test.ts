/**
 * Absence and birthday automations: queued at their send time in each location's time zone, for
 * guests who opted in, once per guest (a run per automation, location and day is claimed in the
 * database, so instances running it together queue nothing twice). The clock is given.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { runScheduledAutomations } from "../../../src/modules/messages/message-schedule.js";
import { type TestApp, createTestApp } from "../../helpers/app.js";
import { DIALECTS } from "../../helpers/db.js";
import { loginGuest, mailEnv, messagesOf } from "../../helpers/mail.js";
import { type SmtpServer, startSmtpServer } from "../../helpers/smtp-server.js";
import { makeLocation } from "../../helpers/sub-users.js";

for (const dialect of DIALECTS) {
  describe(`absence and birthday automations (${dialect})`, () => {
    let smtp: SmtpServer;
    let t: TestApp;
    let loc: number;
    before(async () => {
      smtp = await startSmtpServer();
      t = await createTestApp(dialect, mailEnv(smtp));
      loc = await makeLocation(t);
    });
    after(async () => {
      await t.close();
      await smtp.stop();
    });

    it("reminds guests whose last visit was absence_days ago, at the send time, once", async () => {
      const a = await t.call("POST", "create-or-update-automation", { trigger: "absence", channel: "email", absence_days: 30, send_time: "10:00", location_ids: String(loc) });
      assert.equal(a.statusCode, 200, JSON.stringify(a.body));
      // Chicago is UTC-6 in November: 2026-10-27 18:00Z is a visit on 2026-10-27; "today" is 2026-11-26.
      const away = await loginGuest(t, loc, { optIn: true, email: "away@example.org", at: new Date("2026-10-27T18:00:00Z") });
      const back = await loginGuest(t, loc, { optIn: true, email: "back@example.org", at: new Date("2026-10-27T18:00:00Z") });
      await loginGuest(t, loc, { optIn: true, email: "back@example.org", at: new Date("2026-11-16T18:00:00Z") });
      await loginGuest(t, loc, { optIn: false, email: "quiet@example.org", at: new Date("2026-10-27T18:00:00Z") });
      assert.equal(await runScheduledAutomations(t.deps, new Date("2026-11-26T15:59:00Z")), 0, "09:59 local: not yet");
      const runs = await Promise.all([1, 2].map(() => runScheduledAutomations(t.deps, new Date("2026-11-26T16:01:00Z"))));
      assert.equal(runs[0] + runs[1], 1, `one reminder between two instances: ${runs}`);
      assert.equal(await runScheduledAutomations(t.deps, new Date("2026-11-26T20:00:00Z")), 0, "once a day");
      const queued = await messagesOf(t, { automation_id: a.body.automation_id });
      assert.deepEqual(
        queued.map((m) => m.user_id),
        [away],
      );
      assert.notEqual(back, away);
    });

    it("wishes a happy birthday on the day, in the location's calendar; 29 February on the 28th of other years", async () => {
      const a = await t.call("POST", "create-or-update-automation", { trigger: "birthday", channel: "email", send_time: "08:30" });
      const today = await loginGuest(t, loc, { optIn: true, email: "cake@example.org", birthdate: "1990-11-26" });
      const leap = await loginGuest(t, loc, { optIn: true, email: "leap@example.org", birthdate: "2000-02-29" });
      await loginGuest(t, loc, { optIn: true, email: "other@example.org", birthdate: "1990-11-27" });
      await loginGuest(t, loc, { optIn: false, email: "shy@example.org", birthdate: "1990-11-26" });
      // 2026-11-27 02:00Z is still 26 November in Chicago, 20:00.
      await runScheduledAutomations(t.deps, new Date("2026-11-27T02:00:00Z"));
      await runScheduledAutomations(t.deps, new Date("2027-02-28T15:00:00Z"));
      const queued = await messagesOf(t, { automation_id: a.body.automation_id });
      assert.deepEqual(
        queued.map((m) => m.user_id),
        [today, leap],
      );
    });
  });
}
