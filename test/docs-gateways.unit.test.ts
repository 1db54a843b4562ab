/** docs/gateways.md keeps the one table of model -> family -> hand-off -> dialect: it must match the code. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { DEVICE_FAMILIES } from "../src/modules/devices/device-families.js";
import { DEVICE_MODELS } from "../src/modules/devices/device-models.js";

interface Row {
  family: string;
  /** The hand-off ids the cell starts with: "`coova` or `opennds`: what happens". */
  handoffs: string[];
  text: string;
  dialect: string;
}

/** The model rows of the table: `| `model-id` | hardware | family | hand-off | dialect |`. */
export function tableRows(text: string): Map<string, Row> {
  const rows = new Map<string, Row>();
  for (const line of text.split("\n")) {
    const m = /^\| `([a-z0-9-]+)` \|[^|]+\| ([a-z]+) \| ([^|]+) \| ([a-z]+) \|$/.exec(line);
    if (!m) continue;
    assert.ok(!rows.has(m[1]), `${m[1]} listed twice`);
    const cell = /^((?:`[a-z-]+`(?: or )?)+): (.+)$/.exec(m[3].trim());
    assert.ok(cell, `${m[1]}: the hand-off cell starts with the hand-off ids, then ": " and what happens`);
    rows.set(m[1], { family: m[2], handoffs: [...cell[1].matchAll(/`([a-z-]+)`/g)].map((h) => h[1]), text: cell[2], dialect: m[4] });
  }
  return rows;
}

describe("docs/gateways.md", () => {
  const text = readFileSync(new URL("../docs/gateways.md", import.meta.url), "utf8");

  it("lists every model of the catalogue, once, with the family, hand-offs and RADIUS dialect the code gives it", () => {
    const rows = tableRows(text);
    for (const model of DEVICE_MODELS) {
      const row = rows.get(model.id);
      assert.ok(row, `${model.id} is missing from the table`);
      const family = DEVICE_FAMILIES[model.family];
      assert.equal(row.family, model.family, model.id);
      assert.deepEqual(row.handoffs, [...family.handoffs], `${model.id}: the hand-offs of family ${model.family}`);
      assert.ok(row.text.length > 0, model.id);
      assert.equal(row.dialect, family.radius, model.id);
    }
    assert.deepEqual([...rows.keys()].sort(), DEVICE_MODELS.map((m) => m.id).sort(), "no model the catalogue does not have");
  });

  it("every family of the catalogue has at least one hand-off", () => {
    for (const model of DEVICE_MODELS) assert.ok(DEVICE_FAMILIES[model.family].handoffs.length > 0, model.id);
  });

  it("refuses a row whose hand-off ids differ from the code's (the check above can fail)", () => {
    const wrong = text.replace("| ruckus | `ruckus` or `ruckus-nbi`:", "| ruckus | `ruckus` or `aruba`:");
    assert.notEqual(wrong, text);
    const row = tableRows(wrong).get("ruckus-r550");
    assert.deepEqual(row?.handoffs, ["ruckus", "aruba"]);
    assert.notDeepEqual(row?.handoffs, [...DEVICE_FAMILIES.ruckus.handoffs]);
    assert.throws(() => tableRows(text.replace("| ruckus | `ruckus` or `ruckus-nbi`:", "| ruckus | posted to the ZoneDirector:")), /hand-off cell/);
  });
});
