/**
 * /docs "Try it out" from a real browser, with the page opened on a host that is not PUBLIC_URL
 * (the service behind another name, a tunnel, a port forward): the call goes to the host the page
 * came from and comes back 200.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Browser } from "playwright-core";
import { launchChromium } from "../helpers/browser.js";
import { type TestApp, createTestApp } from "../helpers/app.js";

describe("/docs Try it out (Chromium)", () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  before(async () => {
    // createTestApp sets PUBLIC_URL=http://portal.test, a name that resolves nowhere.
    t = await createTestApp("sqlite");
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t.close();
  });

  it("the OpenAPI document names no host", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/openapi.json" })).json();
    for (const s of doc.servers ?? []) assert.doesNotMatch(s.url, /^[a-z]+:\/\//i, `server URL ${s.url} is absolute`);
  });

  it("executes GET /api/device-models against the page's own host", async () => {
    const page = await browser.newPage();
    try {
      const calls: string[] = [];
      page.on("request", (r) => {
        if (r.url().includes("/api/device-models")) calls.push(r.url());
      });
      await page.goto(`${base}/docs`);
      const op = page.locator("#operations-default-get_api_device_models, [id$='get_api_device_models']").first();
      await op.locator(".opblock-summary").click();
      await op.getByRole("button", { name: "Try it out" }).click();
      await op.locator('tr[data-param-name="identifier"] input').first().fill(t.identifier);
      await op.getByRole("button", { name: "Execute" }).click();
      const status = op.locator(".live-responses-table tbody .response-col_status").first();
      await status.waitFor({ timeout: 15_000 });
      assert.equal((await status.innerText()).trim(), "200");
      assert.ok(calls.length > 0 && calls.every((u) => u.startsWith(`${base}/api/device-models`)), calls.join(", "));
    } finally {
      await page.close();
    }
  });
});
