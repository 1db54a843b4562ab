/** oauth2-mock-server set up as all four social networks, for the portal's OAuth tests. */
import assert from "node:assert/strict";
import type { IncomingMessage } from "node:http";
import { OAuth2Server } from "oauth2-mock-server";

/** What each provider's userinfo endpoint answers, in that provider's own shape. */
export const PROFILES: Record<string, object> = {
  facebook: { id: "fb-1001", name: "Fiona Book", email: "fiona@example.com", gender: "female", picture: { data: { url: "https://img.example/f.jpg" } } },
  twitter: { data: { id: "tw-2002", name: "Tom Tweet", username: "tomtweet", profile_image_url: "https://img.example/t.jpg" } },
  instagram: { id: "ig-3003", username: "ines.gram" },
  linkedin: { sub: "li-4004", name: "Lena Link", given_name: "Lena", email: "lena@example.com", locale: "de_DE" },
};

export interface OAuthMock {
  server: OAuth2Server;
  base: string;
  /** Token requests as received: body fields and the Authorization header. */
  tokenRequests: { body: Record<string, string>; authorization: string | undefined }[];
  env: Record<string, string>;
}

/** oauth2-mock-server on loopback, one client per provider, userinfo answering per `?p=`. */
export async function startOAuthMock(): Promise<OAuthMock> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate("RS256");
  await server.start(0, "127.0.0.1");
  const base = `http://127.0.0.1:${server.address().port}`;
  const tokenRequests: OAuthMock["tokenRequests"] = [];
  server.service.on("beforeTokenSigning", (_token, req: IncomingMessage & { body?: Record<string, string> }) => {
    if (req.body?.grant_type === "authorization_code" && !tokenRequests.some((r) => r.body.code === req.body?.code)) {
      tokenRequests.push({ body: { ...req.body }, authorization: req.headers.authorization });
    }
  });
  server.service.on("beforeUserinfo", (res: { body: object; statusCode: number }, req: IncomingMessage) => {
    const p = new URL(req.url ?? "/", base).searchParams.get("p") ?? "";
    if (!/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/.test(req.headers.authorization ?? "")) {
      res.statusCode = 401;
      res.body = { error: "invalid_token" };
    } else {
      res.body = PROFILES[p] ?? { error: "unknown provider" };
    }
  });
  const env: Record<string, string> = {};
  for (const p of Object.keys(PROFILES)) {
    const P = p.toUpperCase();
    env[`${P}_CLIENT_ID`] = `${p}-client`;
    env[`${P}_CLIENT_SECRET`] = `${p}-secret`;
    env[`${P}_AUTHORIZE_URL`] = `${base}/authorize`;
    env[`${P}_TOKEN_URL`] = `${base}/token`;
    env[`${P}_USERINFO_URL`] = `${base}/userinfo?p=${p}`;
  }
  return { server, base, tokenRequests, env };
}

/** Follows the provider's authorization redirect (the mock approves at once) back to our callback. */
export async function approveAtProvider(authorizeUrl: string): Promise<string> {
  const res = await fetch(authorizeUrl, { redirect: "manual" });
  assert.equal(res.status, 302);
  return res.headers.get("location")!;
}
