/**
 * Message templates: plain text with {{field}} or {{field|fallback}} placeholders filled from the
 * guest and the location, and the choice of a template's language for a guest.
 */

/** The fields a template may name. */
export const TEMPLATE_FIELDS = ["first_name", "last_name", "full_name", "email", "phone_number", "location_name", "location_town", "review_url"] as const;
export type TemplateField = (typeof TEMPLATE_FIELDS)[number];
export type TemplateValues = Record<TemplateField, string>;

const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*(?:\|([^{}]*))?\}\}/g;

/** The unknown fields a template names (empty when every one is known). */
export function unknownFields(template: string): string[] {
  const known = new Set<string>(TEMPLATE_FIELDS);
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]).filter((f) => !known.has(f)))];
}

/** The template with its placeholders filled (an empty value takes the placeholder's fallback). */
export function renderTemplate(template: string, values: TemplateValues): string {
  return template.replace(PLACEHOLDER, (_m, field: string, fallback: string | undefined) => {
    const v = (values as Record<string, string>)[field] ?? "";
    return v.trim() !== "" ? v : (fallback ?? "").trim();
  });
}

/** A guest's values for templates (first and last name are the first word of the full name and the rest). */
export function templateValues(
  guest: { full_name: string; email: string; phone_number: string },
  location: { name: string; town: string },
  reviewUrl: string,
): TemplateValues {
  const name = guest.full_name.trim();
  const space = name.indexOf(" ");
  return {
    first_name: space < 0 ? name : name.slice(0, space),
    last_name: space < 0 ? "" : name.slice(space + 1).trim(),
    full_name: name,
    email: guest.email,
    phone_number: guest.phone_number,
    location_name: location.name,
    location_town: location.town,
    review_url: reviewUrl,
  };
}

/** A language code as stored: "fr", "pt-br" (a locale "pt_BR" reads the same). Empty when not one. */
export function languageCode(locale: string): string {
  const l = locale.trim().toLowerCase().replace(/_/g, "-");
  return /^[a-z]{2,3}(-[a-z0-9]{2,8})?$/.test(l) ? l : "";
}

/**
 * The key of `available` (language codes) that suits a guest of `locale`: the exact language and
 * region, else the language alone, else undefined.
 */
export function pickLanguage(locale: string, available: readonly string[]): string | undefined {
  const l = languageCode(locale);
  if (l === "") return undefined;
  if (available.includes(l)) return l;
  const base = l.split("-")[0];
  return available.includes(base) ? base : undefined;
}
