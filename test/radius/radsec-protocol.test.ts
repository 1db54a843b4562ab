/**
 * RadSec (RFC 6614) details with a client of our own: Status-Server, many requests in flight on
 * one connection, TLS 1.2 and 1.3, MAC authentication, another account's access point, CoA and
 * Disconnect back over the gateway's connection, expired and foreign certificates, idle timeout
 * and reconnection.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { createCa, issueCertificate } from "../../src/modules/device-certificates/certificate-authority.js";
import { verifyCoaAnswer } from "../../src/radius/coa-client.js";
import { DIALECTS } from "../helpers/db.js";
import { accessRequestBytes, accountingRequestBytes, decodeReply } from "./raw-packets.js";
import { type ClientTls, connectRadsec, responseAuthenticatorValid, statusServerBytes } from "./radsec-client.js";
import { type RadsecWorld, deviceTls, radsecWorld } from "./radsec-fixtures.js";
import { dashed, makeDevice, makeGuest, randomMac } from "./radius-fixtures.js";

const SECRET = "radsec";

/** Signs a CoA/Disconnect answer to `request` as a gateway would (Response Authenticator over the request's). */
function answerTo(request: Buffer, code: number): Buffer {
  const p = Buffer.alloc(20);
  p[0] = code;
  p[1] = request[1];
  p.writeUInt16BE(20, 2);
  request.copy(p, 4, 4, 20);
  createHash("md5").update(p).update(SECRET).digest().copy(p, 4);
  return p;
}

for (const dialect of DIALECTS) {
  describe(`radsec protocol (${dialect})`, () => {
    let w: RadsecWorld;
    before(async () => {
      w = await radsecWorld(dialect, { RADSEC_IDLE_TIMEOUT: "2" });
    });
    after(async () => w.t.close());

    const macAuth = (identifier: number, apMac: string, client: string) =>
      accessRequestBytes(SECRET, identifier, [
        ["User-Name", dashed(client)],
        ["User-Password", dashed(client)],
        ["Called-Station-Id", `${dashed(apMac)}:Guest`],
        ["Calling-Station-Id", dashed(client)],
      ]);

    it("answers Status-Server with a signed Access-Accept, over TLS 1.2 and over TLS 1.3", async () => {
      for (const version of ["TLSv1.2", "TLSv1.3"] as const) {
        const c = await connectRadsec(w.port, w.tls, { minVersion: version, maxVersion: version });
        assert.equal(c.socket.getProtocol(), version);
        const req = statusServerBytes(SECRET, 7);
        c.socket.write(req);
        const reply = await c.next();
        assert.equal(reply[0], 2, "Access-Accept");
        assert.equal(reply[1], 7);
        assert.ok(responseAuthenticatorValid(req, reply, SECRET));
        // Without Message-Authenticator it is silently discarded (RFC 5997 section 3); the connection stays.
        const bare = Buffer.from(req.subarray(0, 20));
        bare.writeUInt16BE(20, 2);
        bare[1] = 8;
        c.socket.write(bare);
        c.socket.write(statusServerBytes(SECRET, 9));
        assert.equal((await c.next())[1], 9, "the next one is answered, the bare one never");
        c.close();
      }
    });

    it("answers 200 requests written at once on one connection, each by its Identifier", async () => {
      const c = await connectRadsec(w.port, w.tls);
      const clients = Array.from({ length: 200 }, () => randomMac());
      for (const m of clients.slice(0, 100)) await makeGuest(w.t, w.locationId, m); // known guests: MAC authentication accepts them
      c.socket.write(Buffer.concat(clients.map((m, i) => macAuth(i, w.ap.mac, m))));
      const replies = await Promise.all(clients.map((_, i) => c.next((p) => p[1] === i, 20_000)));
      const codes = replies.map((r) => decodeReply(r).code);
      assert.ok(codes.every((code) => code === "Access-Accept" || code === "Access-Reject"), codes.join());
      assert.equal(new Set(replies.map((r) => r[1])).size, 200);
      c.close();
    });

    it("drops a request naming another account's access point", async () => {
      const other = await w.t.newAccount();
      const theirs = await makeDevice(w.t, null, other.accountId);
      const c = await connectRadsec(w.port, w.tls);
      c.socket.write(macAuth(1, theirs.mac, randomMac()));
      c.socket.write(statusServerBytes(SECRET, 2));
      const first = await c.next();
      assert.equal(first[1], 2, "only the Status-Server after it is answered");
      c.close();
    });

    it("records accounting and sends Disconnect back over the gateway's own connection", async () => {
      const c = await connectRadsec(w.port, w.tls);
      const client = randomMac();
      await makeGuest(w.t, w.locationId, client);
      const sessionId = `tls-${Date.now()}`;
      c.socket.write(
        accountingRequestBytes(SECRET, 3, [
          ["Acct-Status-Type", "Start"],
          ["Acct-Session-Id", sessionId],
          ["User-Name", dashed(client)],
          ["Called-Station-Id", `${dashed(w.ap.mac)}:Guest`],
          ["Calling-Station-Id", dashed(client)],
          ["Framed-IP-Address", "10.1.2.3"],
        ]),
      );
      assert.equal(decodeReply(await c.next()).code, "Accounting-Response");
      const session = await w.t.db.selectFrom("radius_sessions").select("id").where("acct_session_id", "=", sessionId).executeTakeFirstOrThrow();
      const outcome = w.t.deps.sessionControl!.disconnect(session.id, "operator", w.t.radiusConfig);
      const request = await c.next((p) => p[0] === 40);
      assert.equal(verifyCoaAnswer(request, answerTo(request, 41), SECRET)?.code, 41, "a request signed with radsec");
      c.socket.write(answerTo(request, 41));
      const done = await outcome;
      assert.equal(done.result, "ack");
      const row = await w.t.db.selectFrom("coa_requests").selectAll().where("id", "=", done.requestId).executeTakeFirstOrThrow();
      assert.match(row.nas_address, /127\.0\.0\.1$/, "sent to the connection's peer, not by UDP");
      const closed = await w.t.db.selectFrom("radius_sessions").select("stopped_at").where("id", "=", session.id).executeTakeFirstOrThrow();
      assert.notEqual(closed.stopped_at, null);
      c.close();
    });

    /**
     * Whether the server refuses the client: the handshake fails, or (TLS 1.3, where the client
     * finishes before the server has checked its certificate) the server closes without answering.
     */
    const refused = async (tls: ClientTls): Promise<boolean> => {
      try {
        const c = await connectRadsec(w.port, tls);
        c.socket.write(statusServerBytes(SECRET, 1));
        await c.closed;
        return c.received.length === 0;
      } catch {
        return true;
      }
    };

    it("refuses an expired certificate and one from a foreign CA", async () => {
      const expired = await deviceTls(w.t, w.ap.id, { notBefore: new Date(Date.now() - 10 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) });
      assert.ok(await refused(expired), "expired");
      const foreignCa = await createCa("Somebody else", 10);
      const foreign = await issueCertificate(foreignCa, { commonName: w.ap.mac, usage: "client", notBefore: new Date(Date.now() - 60_000), notAfter: new Date(Date.now() + 86_400_000) });
      assert.ok(await refused({ certificate: foreign.certificate, privateKey: foreign.privateKey, caCertificate: w.tls.caCertificate }), "foreign");
      assert.equal(await refused(w.tls), false, "while the device's own certificate is served");
    });

    it("closes an idle connection; a reconnect picks up and its resent request gets the same answer", async () => {
      const c = await connectRadsec(w.port, w.tls);
      const client = randomMac();
      await makeGuest(w.t, w.locationId, client);
      const req = macAuth(42, w.ap.mac, client);
      c.socket.write(req);
      const first = await c.next();
      await c.closed; // RADSEC_IDLE_TIMEOUT=2
      const again = await connectRadsec(w.port, w.tls);
      again.socket.write(req);
      const second = await again.next();
      assert.deepEqual(second, first, "the duplicate cache answers the resend across connections");
      again.close();
    });
  });
}
