/**
 * Choosing a language: the Accept-Language field as RFC 9110 (section 12.5.4) defines it, matched
 * against the languages on offer by the "lookup" scheme of RFC 4647 (section 3.4): ranges in
 * order of preference, each shortened subtag by subtag until a tag on offer matches it.
 */

/** The most ranges of one header that are looked at; a longer header is a client's mistake or an attack. */
const MAX_RANGES = 32;

/** The language ranges of an Accept-Language value, most preferred first; `q=0` ("not acceptable") and `*` left out. */
export function acceptedRanges(header: string | undefined): string[] {
  if (!header) return [];
  const ranges: { range: string; q: number; at: number }[] = [];
  const items = header.slice(0, 2048).split(",");
  for (let at = 0; at < items.length && ranges.length < MAX_RANGES; at++) {
    const [rawRange, ...params] = items[at].split(";");
    const range = rawRange.trim();
    if (!/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(range)) continue;
    let q = 1;
    let valid = true;
    for (const p of params) {
      const m = /^\s*q\s*=\s*(.*?)\s*$/i.exec(p);
      if (!m) continue;
      // qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ); anything else makes the item void.
      if (/^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(m[1])) q = Number(m[1]);
      else valid = false;
    }
    if (valid && q > 0) ranges.push({ range, q, at });
  }
  // Stable: equal weights keep the order the client wrote them in.
  return ranges.sort((a, b) => b.q - a.q || a.at - b.at).map((r) => r.range);
}

/**
 * Chinese written with Simplified characters is what "zh", "zh-CN", "zh-SG" and "zh-MY" readers
 * expect; "zh-TW", "zh-HK" and "zh-MO" readers expect Traditional, which is not offered (their next
 * range, or the default, is used). The range gets its script subtag so that lookup can match it.
 */
function withScript(range: string): string {
  const parts = range.split("-");
  if (parts[0].toLowerCase() !== "zh" || (parts[1] && parts[1].length === 4)) return range;
  const region = (parts[1] ?? "").toUpperCase();
  if (region === "" || region === "CN" || region === "SG" || region === "MY") return ["zh", "Hans", ...parts.slice(1)].join("-");
  return range;
}

/** RFC 4647 lookup of one range among `available` (any case); the tag as `available` spells it. */
export function lookupRange(range: string, available: readonly string[]): string | undefined {
  return lookupLower(range, available, available.map((t) => t.toLowerCase()));
}

/** lookupRange with `available` already lower-cased into `lower` (same order). */
function lookupLower(range: string, available: readonly string[], lower: readonly string[]): string | undefined {
  let r = withScript(range).toLowerCase();
  while (r !== "") {
    const i = lower.indexOf(r);
    if (i >= 0) return available[i];
    const cut = r.lastIndexOf("-");
    if (cut < 0) break;
    r = r.slice(0, cut);
    // A range left ending in a singleton (an extension's or private use's "x") loses it too.
    while (/-[a-z0-9]$/.test(r)) r = r.slice(0, -2);
  }
  return undefined;
}

/** The language on offer that the Accept-Language value asks for first, or `fallback`. */
export function negotiateLanguage(header: string | undefined, available: readonly string[], fallback: string): string {
  return firstMatch(header, available, available.map((t) => t.toLowerCase())) ?? fallback;
}

function firstMatch(header: string | undefined, available: readonly string[], lower: readonly string[]): string | undefined {
  for (const range of acceptedRanges(header)) {
    const found = lookupLower(range, available, lower);
    if (found) return found;
  }
  return undefined;
}

/** Accept-Language values longer than this are negotiated every time, not remembered. */
const MAX_REMEMBERED_LENGTH = 256;

/**
 * Negotiation among a fixed list of languages that remembers its answer per Accept-Language value:
 * browsers send few distinct values (one per browser language setting), and a portal page asks on
 * every request. At most `size` values are kept; when full, the memory starts over.
 */
export function languageNegotiator(available: readonly string[], size = 512): (header: string | undefined) => string | undefined {
  const lower = available.map((t) => t.toLowerCase());
  const answers = new Map<string, string | null>();
  return (header) => {
    if (!header) return undefined;
    if (header.length > MAX_REMEMBERED_LENGTH) return firstMatch(header, available, lower);
    let answer = answers.get(header);
    if (answer === undefined) {
      answer = firstMatch(header, available, lower) ?? null;
      if (answers.size >= size) answers.clear();
      answers.set(header, answer);
    }
    return answer ?? undefined;
  };
}
