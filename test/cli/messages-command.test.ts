/** guestwifi mail test / quick-report --send-now: real processes, a real database and a real SMTP server (aiosmtpd). */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { after, before, describe, it } from "node:test";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";
import { createRepositories } from "../../src/modules/context.js";
import { DIALECTS } from "../helpers/db.js";
import { type SmtpServer, startSmtpServer } from "../helpers/smtp-server.js";
import { BIN, type CliDatabase, cliDatabase } from "./cli-db.js";

const run = promisify(execFile);

for (const dialect of DIALECTS) {
  describe(`guestwifi mail test / quick-report (${dialect})`, () => {
    let cdb: CliDatabase;
    let smtp: SmtpServer;
    let staff: string;
    before(async () => {
      smtp = await startSmtpServer({ reject: ["nobody@example.net"] });
      cdb = await cliDatabase(dialect);
      await run(process.execPath, [BIN, "migrate"], { env: env() });
      const db = cdb.db();
      const { accountId } = await createAccount({ db, repos: createRepositories() }, `cli-mail-${dialect}-${Date.now()}@example.com`);
      const loc = await db
        .insertInto("locations")
        .values({
          account_id: accountId,
          name: "CLI Cafe",
          address1: "1 Main",
          town: "Town",
          state: "ST",
          zipcode: "00000",
          country: "US",
          phone_number: "555",
          timezone: "Europe/London",
          latitude: null,
          longitude: null,
          website: null,
          portal_slug: `cli-mail-${Date.now()}`,
          default_campaign_id: null,
          date_created: "2026-01-01 00:00:00",
          last_modified: "2026-01-01 00:00:00",
          deleted: 0,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      staff = `manager-${dialect}-${Date.now()}@example.com`;
      await db
        .insertInto("sub_users")
        .values({ account_id: accountId, first_name: "M", last_name: "G", email: staff, phone_number: null, password_hash: "x", quickreport: 1, readonly: 1, quickreport_location_id: loc.id, date_created: "2026-01-01 00:00:00", last_modified: "2026-01-01 00:00:00" })
        .execute();
    });
    after(async () => {
      await cdb.close();
      await smtp.stop();
    });

    const env = (extra: Record<string, string> = {}) => ({
      ...process.env,
      DATABASE_URL: cdb.url,
      LOG_LEVEL: "silent",
      RADIUS_ENABLED: "false",
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: "Guest WiFi <wifi@example.com>",
      ...extra,
    });

    it("mail test sends at once and prints the server's answer; a refusal exits 1", async () => {
      const { stdout } = await run(process.execPath, [BIN, "mail", "test", "--to", "ops@example.net"], { env: env() });
      assert.match(stdout, /^sent to ops@example.net: 250 /m);
      const [got] = await smtp.waitFor(1);
      assert.match(got.mail.subject ?? "", /Test e-mail/);
      await assert.rejects(run(process.execPath, [BIN, "mail", "test", "--to", "nobody@example.net"], { env: env() }), (err: { code: number; stdout: string }) => err.code === 1 && /not sent to nobody@example.net: failed \(550/.test(err.stdout));
      await assert.rejects(run(process.execPath, [BIN, "mail", "test", "--to", "x"], { env: env() }), (err: { code: number; stderr: string }) => err.code === 2 && /--to/.test(err.stderr));
      await assert.rejects(run(process.execPath, [BIN, "mail", "test", "--to", "a@example.net"], { env: env({ SMTP_URL: "", MAIL_FROM: "" }) }), (err: { code: number; stderr: string }) => err.code === 1 && /SMTP_URL/.test(err.stderr));
    });

    it("quick-report --send-now sends the report at once, whatever the hour, only to --email when given", async () => {
      const before = (await smtp.received()).length;
      const { stdout } = await run(process.execPath, [BIN, "quick-report", "--send-now", "--email", staff], { env: env() });
      assert.match(stdout, new RegExp(`^sent to ${staff.replace(/[.]/g, "\\.")}: 250 `, "m"));
      const got = (await smtp.waitFor(before + 1)).slice(before);
      assert.match(got[0].mail.subject ?? "", /^Quick report for \d{4}-\d{2}-\d{2}: CLI Cafe$/);
      const weekly = await run(process.execPath, [BIN, "quick-report", "--send-now", "--weekly"], { env: env() });
      assert.match(weekly.stdout, /^sent to /m);
      assert.match((await smtp.waitFor(before + 2)).at(-1)!.mail.subject ?? "", /^Weekly report /);
      await assert.rejects(run(process.execPath, [BIN, "quick-report", "--send-now", "--email", "stranger@example.com"], { env: env() }), (err: { code: number; stdout: string }) => err.code === 1 && /nobody with the quick report on/.test(err.stdout));
      await assert.rejects(run(process.execPath, [BIN, "quick-report"], { env: env() }), (err: { code: number; stderr: string }) => err.code === 2 && /--send-now/.test(err.stderr));
    });
  });
}
