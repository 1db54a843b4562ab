/**
 * Two RADIUS servers on one database, as two instances behind a UDP load balancer: a portal
 * credential issued by one is accepted by the other once and only once, whichever gets it first,
 * and accounting for one session split across both is counted once.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { loadConfig } from "../../src/config.js";
import { type DB, createDatabase } from "../../src/db/database.js";
import { createRepositories } from "../../src/modules/context.js";
import { issueCredential } from "../../src/radius/portal-credentials.js";
import { createRadiusRepository } from "../../src/radius/radius.repository.js";
import { type RadiusListener, startRadius } from "../../src/radius/radius-server.js";
import { DIALECTS } from "../helpers/db.js";
import { radclient, rawExchange } from "./radclient.js";
import { accessRequestBytes, decodeReply } from "./raw-packets.js";
import { type RadiusEnv, createRadiusEnv, dashed, makeDevice, makeGuest, makeLocation, papRequest, randomMac } from "./radius-fixtures.js";

for (const dialect of DIALECTS) {
  describe(`two RADIUS instances on one database (${dialect})`, () => {
    let t: RadiusEnv;
    let b: RadiusListener;
    let bDb: DB;
    let locationId: number;
    let ap: { id: number; mac: string; secret: string };
    before(async () => {
      t = await createRadiusEnv(dialect);
      // B: its own connection(s), repositories, caches and prepared statements, as another process.
      bDb = t.dialect === "sqlite" ? createDatabase(t.url) : createDatabase(t.url, { searchPath: t.schema, poolSize: 5 });
      const config = loadConfig({ LOG_LEVEL: "silent", RADIUS_HOST: "127.0.0.1", RADIUS_AUTH_PORT: "0", RADIUS_ACCT_PORT: "0" });
      b = await startRadius({ db: bDb, config, log: t.app.log, ctx: { db: bDb, repos: createRepositories(), radius: createRadiusRepository() } });
      locationId = await makeLocation(t);
      ap = await makeDevice(t, locationId);
    });
    after(async () => {
      await b.stop();
      await bDb.destroy();
      await t.close();
    });

    it("accepts a credential issued by A once, on whichever instance asks first", async () => {
      for (const [first, second] of [
        [b, t.radius],
        [t.radius, b],
      ] as const) {
        const client = randomMac();
        const guestId = await makeGuest(t, locationId, client);
        const cred = await issueCredential(t.deps, { guestId, locationId, deviceId: ap.id, clientMac: client, ttlSeconds: 60 });
        // Six requests to each instance at once, then radclient to each: exactly one Access-Accept in
        // all. (On PostgreSQL this fails when the credential is consumed without compare-and-set.)
        const attrs: [string, string][] = [
          ["User-Name", cred.username],
          ["User-Password", cred.password],
          ["Called-Station-Id", `${dashed(ap.mac)}:GuestWiFi`],
          ["Calling-Station-Id", dashed(client)],
          ["NAS-IP-Address", "127.0.0.1"],
        ];
        // Both instances know the access point already, so neither starts later for a look-up.
        for (const server of [first, second]) await radclient(server.authPort, "auth", ap.secret, papRequest(ap.mac, client, dashed(client), dashed(client)));
        const racing: Promise<Buffer[]>[] = [];
        for (let i = 0; i < 6; i++) {
          // A copy of the attributes each time: the radius package appends its Message-Authenticator to the array.
          const packet = accessRequestBytes(ap.secret, i, attrs.map(([k, v]) => [k, v]));
          for (const server of [first, second]) racing.push(rawExchange(server.authPort, [packet], 1, 3000));
        }
        const codes = (await Promise.all(racing)).flat().map((reply) => decodeReply(reply).code);
        const lines = papRequest(ap.mac, client, cred.username, cred.password);
        for (const server of [first, second]) codes.push((await radclient(server.authPort, "auth", ap.secret, lines)).code ?? "none");
        assert.equal(codes.filter((c) => c === "Access-Accept").length, 1, codes.join(", "));
      }
    });

    it("counts one session's accounting once when its packets reach both instances", async () => {
      const client = randomMac();
      const guestId = await makeGuest(t, locationId, client);
      const session = [`User-Name = "${dashed(client)}"`, `Acct-Session-Id = "two-${guestId}"`, `Calling-Station-Id = "${dashed(client)}"`, `Called-Station-Id = "${dashed(ap.mac)}:GuestWiFi"`];
      const acct = (port: number, lines: string[]) => radclient(port, "acct", ap.secret, [...session, ...lines]);
      assert.equal((await acct(t.radius.acctPort, ["Acct-Status-Type = Start"])).code, "Accounting-Response");
      const interim = ["Acct-Status-Type = Interim-Update", "Acct-Session-Time = 60", "Acct-Input-Octets = 1000", "Acct-Output-Octets = 2000"];
      // The same Interim-Update to both instances at once (a retransmission after a failover), then a Stop to B.
      await Promise.all([acct(t.radius.acctPort, interim), acct(b.acctPort, interim)]);
      assert.equal((await acct(b.acctPort, ["Acct-Status-Type = Stop", "Acct-Session-Time = 120", "Acct-Input-Octets = 1500", "Acct-Output-Octets = 2500"])).code, "Accounting-Response");
      const g = await t.db.selectFrom("guests").selectAll().where("id", "=", guestId).executeTakeFirstOrThrow();
      assert.deepEqual(
        [Number(g.radius_session_total_time), Number(g.radius_total_bandwidth_input), Number(g.radius_total_bandwidth_output)],
        [120, 1500, 2500],
      );
      const rows = await t.db.selectFrom("radius_sessions").selectAll().where("acct_session_id", "=", `two-${guestId}`).execute();
      assert.equal(rows.length, 1);
      assert.notEqual(rows[0].stopped_at, null);
    });
  });
}
