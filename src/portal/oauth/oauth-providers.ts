/**
 * What differs between the social networks' OAuth 2.0 authorization-code flows. Endpoints,
 * client id/secret and scope come from configuration (config.oauth); this table holds the
 * protocol facts:
 * - PKCE: Twitter/X requires it, Facebook supports it (OIDC code flow); LinkedIn offers it to
 *   native apps only and Instagram not at all, so those two use the client secret alone.
 * - Client authentication at the token endpoint: Twitter/X wants HTTP Basic for confidential
 *   clients; the others take client_id/client_secret in the form body.
 */
import type { GuestProfileInput } from "../../modules/guests/guest-activity.service.js";

export const SOCIAL_PROVIDERS = ["facebook", "twitter", "instagram", "linkedin"] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

export const PROVIDER_LABELS: Record<SocialProvider, string> = {
  facebook: "Facebook",
  twitter: "Twitter",
  instagram: "Instagram",
  linkedin: "LinkedIn",
};

export interface ProviderTraits {
  pkce: boolean;
  clientAuth: "basic" | "body";
}

export const PROVIDER_TRAITS: Record<SocialProvider, ProviderTraits> = {
  facebook: { pkce: true, clientAuth: "body" },
  twitter: { pkce: true, clientAuth: "basic" },
  instagram: { pkce: false, clientAuth: "body" },
  linkedin: { pkce: false, clientAuth: "body" },
};

export function isSocialProvider(v: string): v is SocialProvider {
  return (SOCIAL_PROVIDERS as readonly string[]).includes(v);
}

export interface SocialProfile {
  /** The network's user id: the guest's identity for that login type. */
  id: string;
  profile: GuestProfileInput;
}

const str = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
const httpOnly = (v: string): string => (/^https?:\/\//i.test(v) ? v : "");

/**
 * One mapping for the four userinfo shapes: Facebook Graph `/me` (id, name, picture.data.url),
 * Twitter v2 `{data:{id,name,username,profile_image_url}}`, Instagram `/me` (id, username) and
 * LinkedIn OpenID userinfo (sub, name, given_name, family_name, email, picture, locale).
 */
export function mapUserinfo(body: unknown): SocialProfile | undefined {
  if (!body || typeof body !== "object") return undefined;
  const outer = body as Record<string, unknown>;
  const d = (outer.data && typeof outer.data === "object" ? outer.data : outer) as Record<string, unknown>;
  const id = str(d.id) || str(d.sub);
  if (!id) return undefined;
  const given = str(d.given_name) || str(d.first_name);
  const family = str(d.family_name) || str(d.last_name);
  const picture = d.picture as unknown;
  const pictureUrl =
    typeof picture === "string"
      ? picture
      : str((picture as { data?: { url?: unknown } } | undefined)?.data?.url) || str(d.profile_image_url);
  const locale = d.locale as unknown;
  return {
    id,
    profile: {
      full_name: str(d.name) || [given, family].filter(Boolean).join(" "),
      email: str(d.email),
      username: str(d.username) || str(d.screen_name) || str(d.preferred_username),
      gender: str(d.gender),
      birthdate: /^\d{4}-\d{2}-\d{2}$/.test(str(d.birthdate)) ? str(d.birthdate) : "",
      locale:
        typeof locale === "object" && locale
          ? [str((locale as Record<string, unknown>).language), str((locale as Record<string, unknown>).country)].filter(Boolean).join("_")
          : str(locale),
      picture_url: httpOnly(pictureUrl),
    },
  };
}
