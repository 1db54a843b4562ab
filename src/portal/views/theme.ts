/**
 * The campaign's colours, made safe and readable: only hex values reach the stylesheet, and a
 * text colour too close to the background (WCAG contrast below 4.5:1) gives way to black or white.
 */

export interface Theme {
  /** `#rrggbb` */
  text: string;
  background: string;
}

/** A hex colour without `#` (3 or 6 digits) as `#rrggbb`, or the fallback. */
export function hexColor(value: string, fallback: string): string {
  const v = value.trim().replace(/^#/, "");
  if (/^[0-9a-fA-F]{6}$/.test(v)) return `#${v.toLowerCase()}`;
  if (/^[0-9a-fA-F]{3}$/.test(v)) return `#${[...v.toLowerCase()].map((c) => c + c).join("")}`;
  return fallback;
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

export function campaignTheme(textColor: string, background: string): Theme {
  const bg = hexColor(background, "#ffffff");
  let text = hexColor(textColor, "#1f2933");
  if (contrastRatio(text, bg) < 4.5) text = contrastRatio("#111111", bg) >= contrastRatio("#ffffff", bg) ? "#111111" : "#ffffff";
  return { text, background: bg };
}
