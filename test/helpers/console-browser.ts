/** What the console's browser tests share: signing in through the form, the navigation, axe-core, form submits. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, Page } from "playwright-core";

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };
/** The widths the console is checked at, with the name its screenshots carry. */
export const VIEWPORTS = [
  [PHONE, "390"],
  [DESKTOP, "1280"],
] as const;
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe-core's serious and critical violations on the page as it is now. */
export async function axeProblems(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(" ")).slice(0, 3) }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id} (${v.impact}): ${v.targets.join(", ")}`);
}

/** Clicks a form's submit button and waits for the page to move to `url`, failing with the form's errors if it does not. */
export async function submitTo(page: Page, button: string, url: RegExp): Promise<void> {
  await page.click(`button:text-is("${button}")`);
  await page.waitForFunction(
    (re) => new RegExp(re).test(location.pathname) || document.querySelector(".field-error, .notice-error") !== null,
    url.source,
  );
  const errors = await page.locator(".field-error, .notice-error").allTextContents();
  assert.deepEqual(errors, [], `${button}: the form answered with errors`);
}

/**
 * Sessions the form has opened, per browser and e-mail. The console allows 10 sign-ins a minute from
 * one address (127.0.0.1 here), so a file that opens many pages signs in through the form once and
 * opens the later pages with that session's cookie, as a returning browser would.
 */
const sessions = new WeakMap<Browser, Map<string, Awaited<ReturnType<ReturnType<Page["context"]>["storageState"]>>>>();

/** A new page signed in (through the form the first time for this browser and e-mail), on the overview, dialogs accepted. */
export async function signedIn(browser: Browser, base: string, email: string, password: string, viewport = DESKTOP): Promise<Page> {
  const known = sessions.get(browser)?.get(`${base} ${email}`);
  if (known) {
    const page = await browser.newPage({ viewport, storageState: known });
    page.on("dialog", (d) => d.accept());
    await page.goto(`${base}/console`);
    const overview = page.locator('h1:text-is("Overview")');
    await overview.or(page.locator('input[type="password"]')).first().waitFor();
    if (await overview.isVisible()) return page;
    await page.close(); // the session ended (signed out, password changed): sign in again through the form
  }
  const page = await browser.newPage({ viewport });
  page.on("dialog", (d) => d.accept());
  await page.goto(`${base}/console`);
  await page.fill('input[type="email"]', email);
  await page.fill('input[type="password"]', password);
  await page.click('button[type="submit"]');
  await page.waitForSelector('h1:text-is("Overview")');
  if (!sessions.has(browser)) sessions.set(browser, new Map());
  sessions.get(browser)!.set(`${base} ${email}`, await page.context().storageState());
  return page;
}

/** Follows the navigation's link `title` (through the phone layout's menu when it is closed) and waits for the page to load. */
export async function openPage(page: Page, title: string): Promise<void> {
  const toggle = page.locator("button.menu-toggle");
  if ((await toggle.isVisible()) && !(await page.locator("#nav").isVisible())) await toggle.click();
  await page.click(`nav a:text-is("${title}")`);
  await page.waitForSelector(`h1:text-is("${title}")`);
  await settled(page);
}

/** Waits until the page's requests are over and nothing says "Loading…". */
export async function settled(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle");
  await page.waitForFunction(() => !document.body.textContent?.includes("Loading…"));
}

/** Enabled controls that would write: a form's submit button, a dangerous button. */
export function enabledWrites(page: Page) {
  return page.locator(".form button[type=submit]:enabled, button.danger:enabled");
}

/** How far the page is wider than its viewport (0: no sideways scrolling). */
export function overflowX(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}
