/**
 * OAuth 2.0 authorization-code flow (RFC 6749) with PKCE (RFC 7636) where the provider supports
 * it: build the authorization URL, exchange the code, read the user's profile.
 */
import { createHash, randomBytes } from "node:crypto";
import type { OAuthProviderConfig } from "../../config.js";
import { portalErrors } from "../portal-errors.js";
import { PROVIDER_TRAITS, type SocialProfile, type SocialProvider, mapUserinfo } from "./oauth-providers.js";

const TIMEOUT_MS = 10_000;

export function callbackUrl(publicUrl: string, provider: SocialProvider): string {
  return `${publicUrl}/portal/oauth/callback/${provider}`;
}

export interface AuthorizationRequest {
  url: string;
  /** The `state` parameter: random, also kept in the guest's signed OAuth cookie. */
  nonce: string;
  /** PKCE code_verifier, "" when the provider does not use PKCE. */
  verifier: string;
}

export function authorizationRequest(provider: SocialProvider, cfg: OAuthProviderConfig, redirectUri: string): AuthorizationRequest {
  const nonce = randomBytes(24).toString("base64url");
  const verifier = PROVIDER_TRAITS[provider].pkce ? randomBytes(48).toString("base64url") : "";
  const url = new URL(cfg.authorizeUrl);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", cfg.clientId);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("scope", cfg.scope);
  url.searchParams.set("state", nonce);
  if (verifier) {
    url.searchParams.set("code_challenge", createHash("sha256").update(verifier).digest("base64url"));
    url.searchParams.set("code_challenge_method", "S256");
  }
  return { url: url.href, nonce, verifier };
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if ((res.headers.get("content-type") ?? "").includes("application/x-www-form-urlencoded")) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Trades the authorization code for an access token. */
export async function exchangeCode(
  provider: SocialProvider,
  cfg: OAuthProviderConfig,
  code: string,
  redirectUri: string,
  verifier: string,
): Promise<string> {
  const form = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri });
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded", accept: "application/json" };
  if (PROVIDER_TRAITS[provider].clientAuth === "basic") {
    const user = encodeURIComponent(cfg.clientId);
    const pass = encodeURIComponent(cfg.clientSecret);
    headers.authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;
    form.set("client_id", cfg.clientId);
  } else {
    form.set("client_id", cfg.clientId);
    form.set("client_secret", cfg.clientSecret);
  }
  if (verifier) form.set("code_verifier", verifier);
  let res: Response;
  try {
    res = await fetch(cfg.tokenUrl, { method: "POST", headers, body: form, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch {
    throw portalErrors.providerFailed(provider);
  }
  const body = (await readJson(res)) as { access_token?: unknown } | undefined;
  if (!res.ok || typeof body?.access_token !== "string" || body.access_token === "") throw portalErrors.providerFailed(provider);
  return body.access_token;
}

export async function fetchProfile(provider: SocialProvider, cfg: OAuthProviderConfig, accessToken: string): Promise<SocialProfile> {
  let res: Response;
  try {
    res = await fetch(cfg.userinfoUrl, {
      headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw portalErrors.providerFailed(provider);
  }
  const profile = res.ok ? mapUserinfo(await readJson(res)) : undefined;
  if (!profile) throw portalErrors.providerFailed(provider);
  return profile;
}
