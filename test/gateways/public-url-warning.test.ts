/**
 * A PUBLIC_URL on localhost or a loopback address is one no gateway or guest can reach: the service
 * says so at start (a warn line), on every console page (the session's settings) and in each
 * get-device-config answer; a reachable PUBLIC_URL gets none of them.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { loadConfig } from "../../src/config.js";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";
import { type RunningService, startService } from "../../src/server.js";
import { testAppOf } from "../helpers/app.js";
import { DIALECTS, type TestDb, createTestDb } from "../helpers/db.js";
import { makeWorld } from "../portal/portal-world.js";

for (const dialect of DIALECTS) {
  describe(`PUBLIC_URL on loopback (${dialect})`, () => {
    const running: { service: RunningService; tdb: TestDb }[] = [];
    after(async () => {
      for (const r of running) {
        await r.service.stop();
        await r.tdb.close();
      }
    });

    async function start(publicUrl: string) {
      const tdb = await createTestDb(dialect);
      const databaseUrl = dialect === "postgres" ? `${tdb.url}?options=${encodeURIComponent(`-c search_path=${tdb.schema}`)}` : tdb.url;
      const config = loadConfig({ DATABASE_URL: databaseUrl, HOST: "127.0.0.1", PORT: "0", PUBLIC_URL: publicUrl, RADIUS_ENABLED: "false", LOG_LEVEL: "info" });
      const lines: string[] = [];
      const service = await startService(config, { jobs: false, logger: { level: "info", stream: { write: (line: string) => void lines.push(line) } } });
      running.push({ service, tdb });
      const t = await testAppOf({ ...tdb, db: service.db }, service.app, config);
      const email = `owner-${Date.now()}-${running.length}@example.com`;
      await createAccount(t.deps, email, "owner password 123");
      const signIn = await service.app.inject({ method: "POST", url: "/console/api/sign-in", payload: { email, password: "owner password 123" } });
      assert.equal(signIn.statusCode, 200, signIn.body);
      const me = await service.app.inject({ method: "GET", url: "/console/api/me", headers: { cookie: String(signIn.headers["set-cookie"]).split(";")[0] } });
      const w = await makeWorld(t);
      const file = await t.call("GET", "get-device-config", { device_id: w.deviceId });
      assert.equal(file.statusCode, 200, JSON.stringify(file.body));
      const warns = lines.map((l) => JSON.parse(l)).filter((l) => l.level === 40 && /PUBLIC_URL/.test(l.msg));
      return { warns, console: me.json().settings.public_url_warning as string, config: file.body.data.warnings as string[] };
    }

    it("warns at start, on the console and in get-device-config when PUBLIC_URL is localhost", async () => {
      const got = await start("http://localhost:3000");
      const words = /PUBLIC_URL is http:\/\/localhost:3000, a localhost or loopback address that no gateway or guest can reach/;
      assert.equal(got.warns.length, 1);
      assert.match(got.warns[0].msg, words);
      assert.match(got.console, words);
      assert.equal(got.config.filter((w) => words.test(w)).length, 1);
    });

    it("says nothing of the kind for a reachable PUBLIC_URL", async () => {
      const got = await start("https://wifi.example.com");
      assert.deepEqual([got.warns.length, got.console, got.config], [0, "", []]);
    });
  });
}
