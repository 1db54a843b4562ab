/**
 * A campaign's logo: a small PNG, JPEG or WebP image kept in the payload as a base64 data URL
 * (docs/campaign-payload.md). It is checked once, when written: type, base64, size, and that the
 * bytes are what the type says (an SVG or HTML page labelled image/png would otherwise be served
 * to guests' browsers). The portal serves it at an address of its own, named by its hash, so that a
 * login page links it instead of carrying it.
 */
import { createHash } from "node:crypto";

/** The largest logo, decoded: 200 KiB. A logo of a login page needs a few tens of kilobytes. */
export const LOGO_MAX_BYTES = 200 * 1024;

/** The media types a logo may have, and the file extension the portal serves each under. */
export const LOGO_TYPES = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" } as const;
export type LogoType = keyof typeof LOGO_TYPES;

/** The characters of the largest logo's data URL (prefix and base64). */
export const LOGO_MAX_CHARS = "data:image/jpeg;base64,".length + 4 * Math.ceil(LOGO_MAX_BYTES / 3);

export interface Logo {
  type: LogoType;
  ext: (typeof LOGO_TYPES)[LogoType];
  bytes: Buffer;
  /** The first 16 hex digits of the bytes' SHA-256: the name the portal serves them under. */
  hash: string;
}

const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;

/** Whether the bytes begin as a file of `type` does (PNG signature, JPEG SOI marker, RIFF....WEBP). */
function magicMatches(type: LogoType, b: Buffer): boolean {
  if (type === "image/png") return b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  if (type === "image/jpeg") return b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
  return b.length >= 12 && b.toString("latin1", 0, 4) === "RIFF" && b.toString("latin1", 8, 12) === "WEBP";
}

const TYPE_NAMES: Record<LogoType, string> = { "image/png": "PNG", "image/jpeg": "JPEG", "image/webp": "WebP" };

/**
 * The logo of a data URL, or the sentence that refuses it (under the parameter `param`). Only
 * `data:image/png|jpeg|webp;base64,<base64>` is read; "" is not a logo (the caller treats it as none).
 */
export function parseLogo(value: string, param = "logo"): { logo: Logo } | { sentence: string } {
  const shape = `The ${param} must be a data URL of a PNG, JPEG or WebP image: data:image/png;base64,... (or empty for none).`;
  if (!value.startsWith("data:")) return { sentence: shape };
  const comma = value.indexOf(",");
  const semicolon = value.indexOf(";");
  if (comma < 0 || semicolon < 0 || semicolon > comma || value.slice(semicolon, comma).toLowerCase() !== ";base64") return { sentence: shape };
  const declared = value.slice(5, semicolon).toLowerCase();
  if (!(declared in LOGO_TYPES)) {
    const shown = declared.replace(/[^a-z0-9.+/-]/g, "").slice(0, 40) || "(none)";
    return { sentence: `The ${param} must be a PNG, JPEG or WebP image; the type ${shown} is not accepted.` };
  }
  const type = declared as LogoType;
  const data = value.slice(comma + 1);
  if (data.length === 0) return { sentence: `The ${param} image is empty.` };
  if (data.length % 4 !== 0 || !BASE64_RE.test(data)) return { sentence: `The ${param} is not valid base64.` };
  // The decoded size, known before decoding: a 300 MB string is refused without a 300 MB buffer.
  const size = (data.length / 4) * 3 - (data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0);
  if (size > LOGO_MAX_BYTES) {
    return { sentence: `The ${param} may not be larger than ${LOGO_MAX_BYTES / 1024} KB (${LOGO_MAX_BYTES} bytes) once decoded; this one is ${size} bytes.` };
  }
  const bytes = Buffer.from(data, "base64");
  if (!magicMatches(type, bytes)) {
    return { sentence: `The ${param} is declared as ${type}, but its content is not a ${TYPE_NAMES[type]} image.` };
  }
  return { logo: { type, ext: LOGO_TYPES[type], bytes, hash: createHash("sha256").update(bytes).digest("hex").slice(0, 16) } };
}

/** The logo of a stored payload's `logo` (checked when it was written), or null for none or one that no longer parses. */
export function storedLogo(value: string): Logo | null {
  if (value === "") return null;
  const parsed = parseLogo(value);
  return "logo" in parsed ? parsed.logo : null;
}

/** `<hash>.<ext>`: the last part of the portal's address of the logo. */
export function logoFileName(logo: Logo): string {
  return `${logo.hash}.${logo.ext}`;
}
