/**
 * EAP across instances: two RADIUS servers on one database behind a UDP balancer that sends each
 * packet to the other instance than the one before (the worst a balancer can do). Each TLS round
 * reaches the instance that does not hold the conversation, which hands it to the one that does
 * (named by the State attribute, found in eap_instances); eapol_test still gets EAP-Success with
 * matching MPPE keys. When the holder is gone, the round is refused with EAP-Failure at once (the
 * peer's next attempt starts a conversation on an instance that is there).
 */
import assert from "node:assert/strict";
import { type RemoteInfo, type Socket, createSocket } from "node:dgram";
import { after, before, describe, it } from "node:test";
import { loadConfig } from "../../src/config.js";
import { type DB, createDatabase } from "../../src/db/database.js";
import { createRepositories } from "../../src/modules/context.js";
import { eapTrustAnchorPem } from "../../src/radius/eap/eap-certificates.js";
import { issueCredential } from "../../src/radius/portal-credentials.js";
import { type RadiusListener, startRadius } from "../../src/radius/radius-server.js";
import { createRadiusRepository } from "../../src/radius/radius.repository.js";
import { DIALECTS } from "../helpers/db.js";
import { eapolTest } from "./eapol-test.js";
import { type RadiusEnv, createRadiusEnv, makeDevice, makeGuest, makeLocation, randomMac } from "./radius-fixtures.js";

/** A UDP balancer on loopback: request n goes to ports[n % 2]; answers go back to the client. */
async function alternatingBalancer(ports: () => number[]): Promise<{ port: number; sentTo: number[]; answers: () => number; close(): void }> {
  const front = createSocket("udp4");
  const sentTo: number[] = [];
  let answers = 0;
  let n = 0;
  const backs = new Map<string, Socket>();
  front.on("message", (msg, client: RemoteInfo) => {
    const key = `${client.address}:${client.port}`;
    let back = backs.get(key);
    if (!back) {
      const s = createSocket("udp4");
      s.on("message", (reply) => {
        answers++;
        front.send(reply, client.port, client.address);
      });
      s.bind(0, "127.0.0.1");
      backs.set(key, s);
      back = s;
    }
    const target = ports()[n++ % 2];
    sentTo.push(target);
    back.send(msg, target, "127.0.0.1");
  });
  await new Promise<void>((resolve) => front.bind(0, "127.0.0.1", resolve));
  return {
    port: front.address().port,
    sentTo,
    answers: () => answers,
    close() {
      front.close();
      for (const s of backs.values()) s.close();
    },
  };
}

for (const dialect of DIALECTS) {
  describe(`EAP across two instances (${dialect})`, () => {
    let t: RadiusEnv;
    let b: RadiusListener | undefined;
    let bDb: DB;
    let locationId: number;
    let ap: { id: number; mac: string; secret: string };
    let trustAnchor: string;
    before(async () => {
      t = await createRadiusEnv(dialect);
      bDb = t.dialect === "sqlite" ? createDatabase(t.url) : createDatabase(t.url, { searchPath: t.schema, poolSize: 5 });
      const config = loadConfig({ LOG_LEVEL: "silent", RADIUS_HOST: "127.0.0.1", RADIUS_AUTH_PORT: "0", RADIUS_ACCT_PORT: "0" });
      b = await startRadius({ db: bDb, config, log: t.app.log, ctx: { db: bDb, repos: createRepositories(), radius: createRadiusRepository() } });
      locationId = await makeLocation(t, { session_time_limit: 3600 });
      ap = await makeDevice(t, locationId);
      trustAnchor = await eapTrustAnchorPem(t.deps, t.radiusConfig);
    });
    after(async () => {
      await b?.stop();
      await bDb.destroy();
      await t.close();
    });

    it("registers both instances, and completes EAP-TTLS when every round lands on the other instance", async () => {
      const registered = await t.db.selectFrom("eap_instances").select(["instance_id", "address"]).execute();
      assert.equal(registered.length, 2);
      const balancer = await alternatingBalancer(() => [t.radius.authPort, (b as RadiusListener).authPort]);
      try {
        const client = randomMac();
        const guestId = await makeGuest(t, locationId, client);
        const cred = await issueCredential(t.deps, { guestId, locationId, deviceId: ap.id, clientMac: client, ttlSeconds: 120 });
        const r = await eapolTest(
          { eap: "TTLS", identity: cred.username, password: cred.password, caCert: trustAnchor },
          { port: balancer.port, secret: ap.secret, apMac: ap.mac, clientMac: client },
        );
        assert.ok(r.success, r.output.slice(-3000));
        assert.ok(r.mppeOk);
        assert.ok(balancer.sentTo.length >= 4, "several rounds");
        assert.ok(new Set(balancer.sentTo).size === 2, "both instances received rounds");
      } finally {
        balancer.close();
      }
    });

    it("refuses at once a round of a conversation whose instance stopped (EAP-Failure: the peer starts over), and B unregisters", async () => {
      // Start on B alone (so B holds the conversation), then stop B and send the rest to A.
      let stopped = false;
      const bPort = (b as RadiusListener).authPort;
      const balancer = await alternatingBalancer(() => (stopped ? [t.radius.authPort, t.radius.authPort] : [bPort, bPort]));
      try {
        const client = randomMac();
        const guestId = await makeGuest(t, locationId, client);
        const cred = await issueCredential(t.deps, { guestId, locationId, deviceId: ap.id, clientMac: client, ttlSeconds: 120 });
        const run = eapolTest(
          { eap: "TTLS", identity: cred.username, password: cred.password, caCert: trustAnchor },
          { port: balancer.port, secret: ap.secret, apMac: ap.mac, clientMac: client, timeoutSeconds: 15 },
        );
        const deadline = Date.now() + 10_000;
        while (balancer.answers() < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
        // From now on everything goes to A; B stops (its registration goes with it).
        stopped = true;
        await (b as RadiusListener).stop();
        b = undefined;
        const r = await run;
        assert.match(r.output, /code=3 \(Access-Reject\)/, "the round of B's conversation is refused");
        assert.equal(r.success, false);
        assert.match(r.output, /EAP Failure/);
        const registered = await t.db.selectFrom("eap_instances").select("instance_id").execute();
        assert.equal(registered.length, 1, "B removed its registration when it stopped");
      } finally {
        balancer.close();
      }
    });
  });
}
