/** Debian's Chromium through playwright-core, headless, as every browser test runs it. */
import { type Browser, chromium } from "playwright-core";

/**
 * How long a page waits for a selector, a navigation or a load state before the test fails. Playwright's
 * 30 s ran out on a 2-core machine at load 40 (several test runs at once); the waits stay bounded.
 */
const WAIT_MS = 90_000;

export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(WAIT_MS);
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => {
    const page = await newPage(options);
    page.setDefaultTimeout(WAIT_MS);
    return page;
  };
  return browser;
}
