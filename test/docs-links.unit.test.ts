/**
 * The README and docs/ stand alone: every relative link (and every file path written in code
 * formatting) resolves to a file inside the repository, and every #anchor to a heading of its page.
 * Links elsewhere must be public http(s) URLs.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, it } from "node:test";

const ROOT = join(import.meta.dirname, "..");
const PAGES = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function anchorsOf(page: string): Set<string> {
  const text = readFileSync(join(ROOT, page), "utf8").replace(/```[\s\S]*?```/g, "");
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => anchorOf(m[1])));
}

/** Link targets of a page, fenced code left out: [text](target) and <http...>. */
export function linksOf(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
}

/** Paths written in code formatting that name a file of the repository relative to the page: `../x.md`, `./y`. */
export function relativePathsInCode(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, "");
  return [...prose.matchAll(/`(\.{1,2}\/[^`\s]+)`/g)].map((m) => m[1]);
}

/** The problem with one target of `page`, or undefined when it resolves. */
function problemOf(page: string, target: string): string | undefined {
  if (/^https?:\/\//.test(target)) {
    return /^https?:\/\/(localhost|127\.|\[::1\]|10\.|192\.168\.)/.test(target) ? "not a public URL" : undefined;
  }
  if (/^[a-z]+:/i.test(target)) return "neither a relative path nor an http(s) URL";
  const [path, anchor] = target.split("#");
  const file = path === "" ? join(ROOT, page) : resolve(ROOT, dirname(page), decodeURIComponent(path));
  const inside = relative(ROOT, file);
  if (inside.startsWith("..") || resolve(file) === resolve(ROOT, "..")) return "points outside the repository";
  if (!existsSync(file)) return "no such file";
  if (anchor !== undefined && file.endsWith(".md") && !anchorsOf(relative(ROOT, file)).has(anchor)) return `no heading for #${anchor}`;
  return undefined;
}

describe("links in the README and docs/", () => {
  it("finds the pages and their links (the check below would pass on nothing)", () => {
    assert.ok(PAGES.includes("docs/architecture.md"));
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    assert.ok(linksOf(readme).includes("docs/architecture.md"), "the README links the architecture page");
    assert.deepEqual(linksOf('see [a](b.md#c) and [d](https://example.com "t")\n```\n[no](x)\n```'), ["b.md#c", "https://example.com"]);
    assert.deepEqual(relativePathsInCode("See `../shared/STYLE.md` and `src/x.ts`."), ["../shared/STYLE.md"]);
    assert.equal(anchorOf("For the portal: `issueCredential`"), "for-the-portal-issuecredential");
  });

  for (const page of PAGES) {
    it(`${page}: every link resolves inside the repository or is a public URL`, () => {
      const text = readFileSync(join(ROOT, page), "utf8");
      const broken = [...linksOf(text), ...relativePathsInCode(text)]
        .map((target) => ({ target, problem: problemOf(page, target) }))
        .filter((l) => l.problem !== undefined)
        .map((l) => `${l.target}: ${l.problem}`);
      assert.deepEqual(broken, []);
    });
  }
});
