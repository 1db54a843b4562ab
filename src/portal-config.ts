/**
 * The captive portal's settings (the key that signs its state, the social sign-in providers), read
 * by config.ts with its readers so that every variable fails with the same kind of message.
 */
import type { ConfigReaders } from "./config-readers.js";

export interface OAuthProviderConfig {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
  scope: string;
}

export interface PortalConfig {
  /** Key used to sign portal state (CSRF tokens, OAuth state). Random per process when not set. */
  portalSecret: string | undefined;
  oauth: Partial<Record<"facebook" | "twitter" | "instagram" | "linkedin", OAuthProviderConfig>>;
}

const OAUTH_DEFAULTS: Record<keyof PortalConfig["oauth"], Omit<OAuthProviderConfig, "clientId" | "clientSecret">> = {
  facebook: {
    authorizeUrl: "https://www.facebook.com/v19.0/dialog/oauth",
    tokenUrl: "https://graph.facebook.com/v19.0/oauth/access_token",
    userinfoUrl: "https://graph.facebook.com/me?fields=id,name,email,first_name,last_name,gender,locale,picture",
    scope: "public_profile email",
  },
  twitter: {
    authorizeUrl: "https://twitter.com/i/oauth2/authorize",
    tokenUrl: "https://api.twitter.com/2/oauth2/token",
    userinfoUrl: "https://api.twitter.com/2/users/me",
    scope: "users.read tweet.read",
  },
  instagram: {
    authorizeUrl: "https://api.instagram.com/oauth/authorize",
    tokenUrl: "https://api.instagram.com/oauth/access_token",
    userinfoUrl: "https://graph.instagram.com/me?fields=id,username",
    scope: "user_profile",
  },
  linkedin: {
    authorizeUrl: "https://www.linkedin.com/oauth/v2/authorization",
    tokenUrl: "https://www.linkedin.com/oauth/v2/accessToken",
    userinfoUrl: "https://api.linkedin.com/v2/userinfo",
    scope: "openid profile email",
  },
};

function oauthProvider(read: ConfigReaders, key: keyof PortalConfig["oauth"]): OAuthProviderConfig | undefined {
  const P = key.toUpperCase();
  const clientId = read.optional(`${P}_CLIENT_ID`);
  const clientSecret = read.optional(`${P}_CLIENT_SECRET`);
  if (!clientId && !clientSecret) return undefined;
  if (!clientId || !clientSecret) {
    read.fail(`${P}_CLIENT_ID and ${P}_CLIENT_SECRET must be set together`);
  }
  const d = OAUTH_DEFAULTS[key];
  return {
    clientId,
    clientSecret,
    authorizeUrl: read.url(`${P}_AUTHORIZE_URL`, d.authorizeUrl)!,
    tokenUrl: read.url(`${P}_TOKEN_URL`, d.tokenUrl)!,
    userinfoUrl: read.url(`${P}_USERINFO_URL`, d.userinfoUrl)!,
    scope: read.str(`${P}_SCOPE`, d.scope),
  };
}

export function portalConfig(read: ConfigReaders): PortalConfig {
  const oauth: PortalConfig["oauth"] = {};
  for (const k of Object.keys(OAUTH_DEFAULTS) as (keyof PortalConfig["oauth"])[]) {
    const p = oauthProvider(read, k);
    if (p) oauth[k] = p;
  }
  const portalSecret = read.optional("PORTAL_SECRET");
  if (portalSecret !== undefined && portalSecret.length < 16) {
    read.fail("PORTAL_SECRET must be at least 16 characters");
  }
  return { portalSecret, oauth };
}
