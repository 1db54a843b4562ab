/**
 * custom_terms may hold HTML (the specification says so). It reaches the page only through this
 * allow-list: text formatting, lists and plain links; no scripts, event handlers, styles,
 * forms, frames, images or non-http(s) URLs.
 */
import sanitizeHtml from "sanitize-html";
import { SafeHtml } from "./html.js";

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "strong", "b", "em", "i", "u", "small", "ul", "ol", "li", "a", "h2", "h3", "h4", "blockquote"],
  allowedAttributes: { a: ["href", "title", "rel"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  // script/style contents are dropped with their tags, not shown as text.
  disallowedTagsMode: "discard",
  nonTextTags: ["style", "script", "textarea", "option", "noscript", "iframe", "template"],
  transformTags: {
    a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer nofollow" }),
  },
};

// Sanitizing is most of a page render and a campaign's terms rarely change: keep recent results.
const cache = new Map<string, SafeHtml>();
const CACHE_ENTRIES = 256;

export function sanitizeTerms(terms: string): SafeHtml {
  const input = terms.slice(0, 65536);
  let out = cache.get(input);
  if (!out) {
    out = new SafeHtml(sanitizeHtml(input, OPTIONS));
    if (cache.size >= CACHE_ENTRIES) cache.clear();
    cache.set(input, out);
  }
  return out;
}
