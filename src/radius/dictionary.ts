/**
 * The RADIUS dictionary the codec owns: the files of ./dictionaries/ (standard attributes, WISPr,
 * ChilliSpot), in FreeRADIUS's dictionary format, read once into lookup tables. The rules are those
 * of the dictionaries' usual readers: a later ATTRIBUTE with a known number renames it, VALUE lines
 * may come before their ATTRIBUTE, and values of an attribute accumulate across files.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../project-root.js";

export type AttributeType = "string" | "text" | "octets" | "ipaddr" | "date" | "integer" | "time" | string;

export interface AttributeDef {
  id: number | undefined;
  name: string | undefined;
  type: AttributeType | undefined;
  /** Flags of the ATTRIBUTE line (has_tag, encrypt=1, ...); undefined for a name only VALUE lines named. */
  flags: Record<string, boolean> | undefined;
  /** Value number (as text) to name. */
  names: Record<string, string>;
  /** Value name to number (as text). */
  numbers: Record<string, string>;
}

interface VendorTable {
  byId: Map<number, AttributeDef>;
  byName: Map<string, AttributeDef>;
}

/** Attributes outside any vendor. */
export const NO_VENDOR = -1;

export class Dictionary {
  private readonly vendors = new Map<number, VendorTable>();
  private readonly vendorIds = new Map<string, number>();

  /** Reads one file's text; call in the order the files should apply. */
  load(text: string): void {
    let vendor = NO_VENDOR;
    for (const raw of text.split("\n")) {
      const line = raw.replace(/#.*/, "").replace(/\s+/g, " ");
      const vendorLine = /^\s*VENDOR\s+(\S+)\s+(\d+)/.exec(line);
      if (vendorLine) {
        this.vendorIds.set(vendorLine[1], Number(vendorLine[2]));
        continue;
      }
      const begin = /^\s*BEGIN-VENDOR\s+(\S+)/.exec(line);
      if (begin) {
        vendor = this.vendorIds.get(begin[1]) ?? NO_VENDOR;
        continue;
      }
      if (/^\s*END-VENDOR/.test(line)) {
        vendor = NO_VENDOR;
        continue;
      }
      const m = /^\s*ATTRIBUTE\s+(\S+)\s+(\d+)\s+(\S+)\s*(.+)?/.exec(line);
      if (m) {
        const t = this.table(vendor);
        const id = Number(m[2]);
        let def = t.byId.get(id);
        if (!def) {
          def = { id, name: undefined, type: undefined, flags: undefined, names: {}, numbers: {} };
          t.byId.set(id, def);
        }
        def.name = m[1];
        def.type = m[3].toLowerCase();
        def.flags = Object.fromEntries((m[4] ?? "").replace(/\s*/g, "").split(",").filter((f) => f !== "").map((f) => [f, true]));
        const earlier = t.byName.get(m[1]);
        if (earlier && earlier !== def) {
          Object.assign(def.names, earlier.names);
          Object.assign(def.numbers, earlier.numbers);
        }
        t.byName.set(m[1], def);
        continue;
      }
      const v = /^\s*VALUE\s+(\S+)\s+(\S+)\s+(\d+)/.exec(line);
      if (v) {
        const t = this.table(vendor);
        let def = t.byName.get(v[1]);
        if (!def) {
          def = { id: undefined, name: undefined, type: undefined, flags: undefined, names: {}, numbers: {} };
          t.byName.set(v[1], def);
        }
        def.names[v[3]] = v[2];
        def.numbers[v[2]] = v[3];
      }
    }
  }

  private table(vendor: number): VendorTable {
    let t = this.vendors.get(vendor);
    if (!t) {
      t = { byId: new Map(), byName: new Map() };
      this.vendors.set(vendor, t);
    }
    return t;
  }

  byId(vendor: number, id: number): AttributeDef | undefined {
    return this.vendors.get(vendor)?.byId.get(id);
  }

  byName(vendor: number, name: string): AttributeDef | undefined {
    return this.vendors.get(vendor)?.byName.get(name);
  }

  vendorId(name: string): number | undefined {
    return this.vendorIds.get(name);
  }
}

/**
 * The codec's dictionary: every file of src/radius/dictionaries/, in name order. Read once (the files
 * are part of the code); from the installation's src/ whether the sources or the bundle in dist/ run.
 */
function loadBundled(): Dictionary {
  const dir = join(PROJECT_ROOT, "src", "radius", "dictionaries");
  const d = new Dictionary();
  for (const name of readdirSync(dir).sort()) d.load(readFileSync(join(dir, name), "ascii"));
  if (d.vendorId("WISPr") === undefined || d.vendorId("ChilliSpot") === undefined || !d.byName(NO_VENDOR, "User-Name")) {
    throw new Error("RADIUS dictionaries failed to load");
  }
  return d;
}

export const DICTIONARY = loadBundled();
