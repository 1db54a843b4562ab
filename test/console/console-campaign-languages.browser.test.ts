/**
 * A campaign's languages in the console: the texts of another language typed beside the default
 * language's, the preview switched to that language at phone width, the save carrying them to the
 * portal, and a low-contrast pair of colours flagged after the save.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser } from "playwright-core";
import { createAccount } from "../../src/modules/accounts/accounts.service.js";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { launchChromium } from "../helpers/browser.js";
import { axeProblems, openPage, signedIn, submitTo } from "../helpers/console-browser.js";
import { freeTcpPort } from "../helpers/ports.js";

const PASSWORD = "owner password 456";

describe("campaign languages in the console (sqlite)", () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  const email = `langs-${Date.now()}@example.com`;
  let identifier = "";

  before(async () => {
    const port = await freeTcpPort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp("sqlite", { PUBLIC_URL: base });
    await t.app.listen({ host: "127.0.0.1", port });
    browser = await launchChromium();
    identifier = (await createAccount(t.deps, email, PASSWORD)).identifier;
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it("edits a French version beside the English one, previews it in French at phone width, and saves it", async () => {
    const page = await signedIn(browser, base, email, PASSWORD);
    await openPage(page, "Campaigns");
    await page.click("text=New campaign");
    await page.fill("#f-name", "Bilingual");
    await page.fill("#f-title_text", "Welcome aboard");
    await page.selectOption("#tr-add", "fr");
    // The English title stands beside the French field.
    await page.locator(".translation .original[lang=en] >> text=Welcome aboard").waitFor();
    await page.fill("#tr-fr-title_text", "Bienvenue à bord");
    await page.fill("#tr-fr-button_text", "C’est parti");
    await page.selectOption("#preview-lang", "fr");
    const frame = page.frameLocator('iframe[name="campaign-preview"]');
    await frame.locator("h1:text-is('Bienvenue à bord')").waitFor();
    assert.equal(await frame.locator("html").getAttribute("lang"), "fr");
    assert.equal(await page.locator("iframe.phone").evaluate((f) => (f as HTMLIFrameElement).getBoundingClientRect().width), 390);
    await page.selectOption("#preview-lang", "en");
    await frame.locator("h1:text-is('Welcome aboard')").waitFor();
    assert.deepEqual(await axeProblems(page), []);
    // Colours of too little contrast: saved, and flagged.
    await page.fill("#f-text_color", "#777777");
    await page.fill("#f-background", "#888888");
    await submitTo(page, "Create campaign", /\/console\/campaigns\/\d+$/);
    const id = Number(/(\d+)$/.exec(page.url())![1]);
    const saved = (await t.call("GET", "get-campaign", { campaign_ids: id }, { identifier })).body.data[0];
    assert.deepEqual(saved.translations, { fr: { title_text: "Bienvenue à bord", button_text: "C’est parti" } });
    assert.equal(saved.default_language, "en");
    await page.close();
  });
});
