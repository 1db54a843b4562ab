/** guestwifi guest export / guest erase: a real process on a real database. */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { after, before, describe, it } from "node:test";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";
import { createRepositories } from "../../src/modules/context.js";
import { recordLogin } from "../../src/modules/guests/guest-activity.service.js";
import { DIALECTS } from "../helpers/db.js";
import { BIN, type CliDatabase, cliDatabase } from "./cli-db.js";

const run = promisify(execFile);

for (const dialect of DIALECTS) {
  describe(`guestwifi guest export / erase (${dialect})`, () => {
    let cdb: CliDatabase;
    let guestId: number;
    before(async () => {
      cdb = await cliDatabase(dialect);
      await run(process.execPath, [BIN, "migrate"], { env: env() });
      const db = cdb.db();
      const { accountId } = await createAccount({ db, repos: createRepositories() }, `cli-guest-${dialect}-${Date.now()}@example.com`);
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
          timezone: "UTC",
          latitude: null,
          longitude: null,
          website: null,
          portal_slug: `cli-${Date.now()}`,
          default_campaign_id: null,
          date_created: "2026-01-01 00:00:00",
          last_modified: "2026-01-01 00:00:00",
          deleted: 0,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      guestId = (
        await recordLogin(db, {
          accountId,
          locationId: loc.id,
          timezone: "UTC",
          campaignId: 1,
          deviceId: null,
          loginType: "Cuser",
          identity: "cli.guest@example.com",
          profile: { email: "cli.guest@example.com", full_name: "Cli Guest" },
          clientMac: "02:11:22:33:44:55",
          userAgent: "test",
        })
      ).guestId;
    });
    after(async () => cdb.close());

    const env = () => ({ ...process.env, DATABASE_URL: cdb.url, LOG_LEVEL: "silent", RADIUS_ENABLED: "false" });

    it("exports the guest as JSON", async () => {
      const { stdout } = await run(process.execPath, [BIN, "guest", "export", "--id", String(guestId)], { env: env() });
      const data = JSON.parse(stdout);
      assert.equal(data.guest.email, "cli.guest@example.com");
      assert.deepEqual(data.macs, ["02:11:22:33:44:55"]);
      assert.equal(data.logins.length, 1);
    });

    it("refuses bad ids and an erase without --yes, then erases", async () => {
      for (const args of [["--id", "abc"], ["--id", "0"], []]) {
        await assert.rejects(run(process.execPath, [BIN, "guest", "export", ...args], { env: env() }), (err: { code: number; stderr: string }) => err.code === 2 && /--id/.test(err.stderr));
      }
      await assert.rejects(run(process.execPath, [BIN, "guest", "export", "--id", "999999"], { env: env() }), (err: { code: number; stderr: string }) => err.code === 1 && /no guest with id 999999/.test(err.stderr));
      await assert.rejects(run(process.execPath, [BIN, "guest", "erase", "--id", String(guestId)], { env: env() }), (err: { code: number; stderr: string }) => err.code === 2 && /--yes/.test(err.stderr));
      assert.ok(await cdb.db().selectFrom("guests").select("id").where("id", "=", guestId).executeTakeFirst(), "not erased without --yes");
      const { stdout } = await run(process.execPath, [BIN, "guest", "erase", "--id", String(guestId), "--yes"], { env: env() });
      assert.match(stdout, new RegExp(`guest ${guestId} erased`));
      assert.equal(await cdb.db().selectFrom("guests").select("id").where("id", "=", guestId).executeTakeFirst(), undefined);
      const macs = await cdb.db().selectFrom("logins").select("client_mac").execute();
      assert.deepEqual(macs.map((m) => m.client_mac), [""]);
    });
  });
}
