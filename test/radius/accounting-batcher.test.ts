/** Group commit of accounting: packets of one event-loop round share a transaction; a bad one fails alone. */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { AccountingBatcher } from "../../src/radius/accounting-batcher.js";
import type { AccountingJob } from "../../src/radius/accounting.service.js";
import type { NasContext } from "../../src/radius/nas-lookup.js";
import { VisitMemo } from "../../src/radius/visit-memo.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { makeDevice, makeGuest, makeLocation, randomMac } from "./radius-fixtures.js";

for (const dialect of DIALECTS) {
  describe(`accounting batcher (${dialect})`, () => {
    let t: TestApp;
    let nas: NasContext;
    before(async () => {
      t = await createTestApp(dialect);
      const locationId = await makeLocation(t);
      const ap = await makeDevice(t, locationId);
      const device = await t.db.selectFrom("devices").selectAll().where("id", "=", ap.id).executeTakeFirstOrThrow();
      const location = await t.db.selectFrom("locations").selectAll().where("id", "=", locationId).executeTakeFirstOrThrow();
      const options = await t.db.selectFrom("location_options").selectAll().where("location_id", "=", locationId).executeTakeFirstOrThrow();
      nas = { device, location, options };
    });
    after(async () => t.close());

    const job = (context: NasContext, sessionId: string, clientMac: string, octets: number): AccountingJob => ({
      nas: context,
      at: new Date(),
      rec: {
        status: "Interim-Update",
        acctSessionId: sessionId,
        userName: undefined,
        clientMac,
        counters: { session_time: 60, input_octets: octets, output_octets: 0 },
        terminateCause: undefined,
      },
    });

    it("applies a burst and, when one packet breaks the batch, still applies the others", async () => {
      const mac = randomMac();
      const guestId = await makeGuest(t, nas.location!.id, mac);
      const batcher = new AccountingBatcher({ db: t.db, visits: new VisitMemo() });
      // A device that does not exist: its session row violates the foreign key.
      const ghost: NasContext = { ...nas, device: { ...nas.device, id: 987_654 } };
      const results = await Promise.allSettled([
        batcher.submit(job(nas, "batch-a", mac, 100)),
        batcher.submit(job(ghost, "batch-ghost", mac, 1_000)),
        batcher.submit(job(nas, "batch-b", mac, 10)),
      ]);
      assert.deepEqual(
        results.map((r) => r.status),
        ["fulfilled", "rejected", "fulfilled"],
      );
      const guest = await t.db.selectFrom("guests").select("radius_total_bandwidth_input").where("id", "=", guestId).executeTakeFirstOrThrow();
      assert.equal(Number(guest.radius_total_bandwidth_input), 110, "both good packets counted once, the bad one not at all");
    });
  });
}
