/**
 * The npm `radius` package as the tests' oracle: an implementation nobody here wrote, given our
 * vendor dictionaries (WISPr, ChilliSpot) beside its own standard ones. The service itself never
 * uses it (src/radius/dictionary.ts).
 */
import { fileURLToPath } from "node:url";
import radius from "radius";

let loaded = false;

export function ensureOracleDictionaries(): void {
  if (loaded) return;
  for (const name of ["dictionary.chillispot", "dictionary.wispr"]) {
    radius.add_dictionary(fileURLToPath(new URL(`../../src/radius/dictionaries/${name}`, import.meta.url)));
  }
  radius.unload_dictionaries();
  (radius as unknown as { load_dictionaries(): void }).load_dictionaries();
  loaded = true;
}
