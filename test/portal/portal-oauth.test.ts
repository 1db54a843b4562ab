import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type TestApp, createTestApp } from "../helpers/app.js";
import { DIALECTS } from "../helpers/db.js";
import { type OAuthMock, PROFILES, approveAtProvider, startOAuthMock } from "./oauth-mock.js";
import { PortalClient, coovaUrl, countLogins, makeWorld, stateOf } from "./portal-world.js";

const LOGIN_TYPES: Record<string, string> = { facebook: "FBUser", twitter: "TWuser", instagram: "IGuser", linkedin: "LIuser" };

for (const dialect of DIALECTS) {
  describe(`portal social login over OAuth 2.0 (${dialect})`, () => {
    let t: TestApp;
    let mock: OAuthMock;
    before(async () => {
      mock = await startOAuthMock();
      t = await createTestApp(dialect, { PORTAL_SECRET: "portal-secret-for-tests", PORTAL_LOGIN_RATE_LIMIT_PER_MINUTE: "1000", ...mock.env });
    });
    after(async () => {
      await t.close();
      await mock.server.stop();
    });

    const social = { login_options: JSON.stringify({ facebook: 1, twitter: 1, instagram: 1, linkedin: 1 }), redirect_url: "" };

    async function start(provider: string) {
      const w = await makeWorld(t, social);
      const client = new PortalClient(t.app);
      const page = await client.get(coovaUrl(w.url, { called: w.apMac, mac: "02:cc:00:00:00:01" }));
      const res = await client.post(`/portal/login/oauth/${provider}`, { state: stateOf(page.body) });
      assert.equal(res.statusCode, 303, res.body);
      return { w, client, page, authorize: new URL(res.location!) };
    }

    for (const provider of Object.keys(PROFILES)) {
      it(`${provider}: authorization code flow with state${provider === "facebook" || provider === "twitter" ? " and PKCE" : ""}, recorded as ${LOGIN_TYPES[provider]}`, async () => {
        const { w, client, authorize } = await start(provider);
        assert.equal(`${authorize.origin}${authorize.pathname}`, `${mock.base}/authorize`);
        assert.equal(authorize.searchParams.get("response_type"), "code");
        assert.equal(authorize.searchParams.get("client_id"), `${provider}-client`);
        assert.equal(authorize.searchParams.get("redirect_uri"), `http://portal.test/portal/oauth/callback/${provider}`);
        assert.match(authorize.searchParams.get("state") ?? "", /^[\w-]{32}$/);
        const pkce = provider === "facebook" || provider === "twitter";
        assert.equal(authorize.searchParams.get("code_challenge_method"), pkce ? "S256" : null);
        assert.doesNotMatch(authorize.href, /eyJ/, "the page state never travels to the provider");
        const back = await approveAtProvider(authorize.href);
        const done = await client.get(back);
        assert.equal(done.statusCode, 303, done.body);
        assert.match(done.location!, /^http:\/\/10\.1\.0\.1:3990\/logon\?username=gw-/);
        const token = mock.tokenRequests.at(-1)!;
        assert.equal(Boolean(token.body.code_verifier), pkce, "the mock checked the verifier against the challenge");
        if (provider === "twitter") {
          assert.equal(token.authorization, `Basic ${Buffer.from("twitter-client:twitter-secret").toString("base64")}`);
          assert.equal(token.body.client_secret, undefined);
        } else {
          assert.equal(token.body.client_secret, `${provider}-secret`);
        }
        const [login] = await countLogins(t, w.locationId);
        assert.equal(login.login_type, LOGIN_TYPES[provider]);
        assert.equal(login.client_mac, "02:CC:00:00:00:01");
        const guest = await t.db.selectFrom("guests").selectAll().where("id", "=", login.guest_id).executeTakeFirstOrThrow();
        const expected: Record<string, [string, string]> = {
          facebook: ["fb-1001", "Fiona Book"],
          twitter: ["tw-2002", "Tom Tweet"],
          instagram: ["ig-3003", ""],
          linkedin: ["li-4004", "Lena Link"],
        };
        assert.deepEqual([guest.network_user_id, guest.full_name], expected[provider]);
        if (provider === "facebook") assert.equal(guest.picture_url, "https://img.example/f.jpg");
        if (provider === "instagram") assert.equal(guest.username, "ines.gram");
      });
    }

    it("refuses a callback whose state is not the one this browser was sent with, or that comes twice", async () => {
      const { client, authorize } = await start("facebook");
      const back = new URL(await approveAtProvider(authorize.href));
      const forged = new URL(back);
      forged.searchParams.set("state", "A".repeat(32));
      assert.equal((await client.get(forged.href)).statusCode, 403);
      const { client: other, authorize: a2 } = await start("facebook");
      const back2 = await approveAtProvider(a2.href);
      const stranger = new PortalClient(t.app);
      assert.equal((await stranger.get(back2)).statusCode, 403, "another browser cannot finish this login");
      assert.equal((await other.get(back2)).statusCode, 303);
      assert.equal((await other.get(back2)).statusCode, 403, "the pending login is used up");
    });

    it("shows the page again when the guest cancels at the provider, and an error page when the provider fails", async () => {
      const { w, client, authorize } = await start("linkedin");
      const cancelled = await client.get(
        `/portal/oauth/callback/linkedin?error=access_denied&state=${authorize.searchParams.get("state")}`,
      );
      assert.equal(cancelled.statusCode, 200);
      assert.match(cancelled.body, /The login with LinkedIn did not complete/);
      assert.match(cancelled.body, /action="\/portal\/login\/oauth\/linkedin"/);
      const again = await client.post("/portal/login/oauth/linkedin", { state: stateOf(cancelled.body) });
      mock.server.service.once("beforeResponse", (res: { body: object; statusCode: number }) => {
        res.statusCode = 400;
        res.body = { error: "invalid_grant" };
      });
      const failed = await client.get(await approveAtProvider(again.location!));
      assert.equal(failed.statusCode, 502);
      assert.match(failed.body, /could not complete the login with Linkedin/i);
      assert.equal((await countLogins(t, w.locationId)).length, 0);
    });
  });
}
