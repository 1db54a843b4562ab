/**
 * custom_terms may hold HTML (the specification says so). It reaches the page only through this
 * allow-list: text formatting, lists and plain links; no scripts, event handlers, styles,
 * forms, frames, images or non-http(s) URLs.
 */
import { LRUCache } from "lru-cache";
import sanitizeHtml from "sanitize-html";
import { SafeHtml } from "../../http/html.js";

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

/** Longest terms text rendered; campaign payloads are bounded well below this. */
const MAX_TERMS = 65536;

/**
 * Sanitizing is most of a page render and a campaign's terms rarely change: recent results are
 * kept, bounded in entries and in characters (one per app, made by the portal plugin).
 */
export class TermsSanitizer {
  private readonly cache = new LRUCache<string, SafeHtml>({
    max: 256,
    maxSize: 4 * 1024 * 1024,
    sizeCalculation: (value, key) => Math.max(1, key.length + value.value.length),
  });

  sanitize(terms: string): SafeHtml {
    const input = terms.slice(0, MAX_TERMS);
    let out = this.cache.get(input);
    if (!out) {
      out = new SafeHtml(sanitizeHtml(input, OPTIONS));
      this.cache.set(input, out);
    }
    return out;
  }
}
