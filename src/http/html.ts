/**
 * HTML templating that escapes by default: every interpolated value is escaped unless it is
 * already SafeHtml (made by this template tag, or by the terms sanitizer). Campaign texts are
 * operator input and must never reach a page as markup.
 */

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

function render(v: unknown): string {
  if (v === null || v === undefined || v === false) return "";
  if (v instanceof SafeHtml) return v.value;
  if (Array.isArray(v)) return v.map(render).join("");
  return escapeHtml(String(v));
}

/** Tagged template: `html\`<p>${text}</p>\`` escapes text; nested html`` fragments pass through. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/** Marks a trusted constant (our own stylesheet) as HTML. Never for anything derived from input. */
export function trusted(s: string): SafeHtml {
  return new SafeHtml(s);
}
