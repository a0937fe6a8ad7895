/** HTML that is already safe to send: built by `html` (which escapes) or marked by `trustedHtml`. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlPart = SafeHtml | string | number | boolean | null | undefined | readonly HtmlPart[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and quoted attribute values. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);

const render = (part: HtmlPart): string => {
  if (part instanceof SafeHtml) return part.value;
  if (Array.isArray(part)) return part.map(render).join('');
  if (part === null || part === undefined || part === false || part === true) return '';
  return escapeHtml(String(part));
};

/**
 * Tagged template for markup: every interpolated value is escaped unless it is SafeHtml, arrays
 * are joined, `null`/`undefined`/booleans render nothing (so `${cond && html`…`}` works).
 */
export const html = (strings: TemplateStringsArray, ...values: HtmlPart[]): SafeHtml => {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(out);
};

/** Marks a string produced by our own code (the stylesheet, an SVG we built) as safe. */
export const trustedHtml = (markup: string): SafeHtml => new SafeHtml(markup);
