/** docs/gateways.md keeps the one table of model -> family -> hand-off -> dialect: it must match the code. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { DEVICE_FAMILIES } from "../src/modules/devices/device-families.js";
import { DEVICE_MODELS } from "../src/modules/devices/device-models.js";

describe("docs/gateways.md", () => {
  it("lists every model of the catalogue, once, with the family and RADIUS dialect the code gives it", () => {
    const text = readFileSync(new URL("../docs/gateways.md", import.meta.url), "utf8");
    const rows = new Map<string, { family: string; handoff: string; dialect: string }>();
    for (const line of text.split("\n")) {
      const m = /^\| `([a-z0-9-]+)` \|[^|]+\| ([a-z]+) \| ([^|]+) \| ([a-z]+) \|$/.exec(line);
      if (!m) continue;
      assert.ok(!rows.has(m[1]), `${m[1]} listed twice`);
      rows.set(m[1], { family: m[2], handoff: m[3].trim(), dialect: m[4] });
    }
    for (const model of DEVICE_MODELS) {
      const row = rows.get(model.id);
      assert.ok(row, `${model.id} is missing from the table`);
      assert.equal(row.family, model.family, model.id);
      assert.equal(row.dialect, DEVICE_FAMILIES[model.family].radius, model.id);
      assert.ok(row.handoff.length > 0, model.id);
    }
    assert.deepEqual([...rows.keys()].sort(), DEVICE_MODELS.map((m) => m.id).sort(), "no model the catalogue does not have");
  });
});
