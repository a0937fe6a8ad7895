import { html, trustedHtml, type HtmlPart, type SafeHtml } from './html.js';
import type { Flash } from './sessionStore.js';
import { STYLESHEET } from './stylesheet.js';

export type Section = 'keys' | 'usage' | 'plan' | 'collections';

const NAV: readonly { section: Section; href: string; label: string }[] = [
  { section: 'keys', href: '/dashboard/keys', label: 'API keys' },
  { section: 'usage', href: '/dashboard/usage', label: 'Usage' },
  { section: 'plan', href: '/dashboard/plan', label: 'Plan' },
  { section: 'collections', href: '/dashboard/collections', label: 'Collections' },
];

// Copy buttons: progressive enhancement (without script the key is still selectable in its field).
const COPY_SCRIPT = `
document.querySelectorAll('[data-copy]').forEach(function (button) {
  button.hidden = false;
  button.addEventListener('click', function () {
    var field = document.getElementById(button.getAttribute('data-copy'));
    var status = document.getElementById(button.getAttribute('data-status'));
    var done = function (text) { if (status) status.textContent = text; };
    field.select();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(function () { done('Copied to the clipboard.'); }, function () { done('Press Ctrl+C (or Cmd+C) to copy.'); });
    } else {
      done(document.execCommand && document.execCommand('copy') ? 'Copied to the clipboard.' : 'Press Ctrl+C (or Cmd+C) to copy.');
    }
  });
});
`;

export interface PageOptions {
  readonly title: string;
  readonly nonce: string;
  readonly body: HtmlPart;
  /** Signed-in pages get the navigation and the sign-out button. */
  readonly signedIn?: { readonly section: Section | null; readonly csrfToken: string };
}

/** The HTML document around every dashboard page. */
export const page = (options: PageOptions): SafeHtml => html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<link rel="icon" href="/dashboard/favicon.svg" type="image/svg+xml">
<title>${options.title} · Pubstream dashboard</title>
<style nonce="${options.nonce}">${trustedHtml(STYLESHEET)}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <a class="brand" href="/dashboard/keys">Pubstream</a>
  ${
    options.signedIn &&
    html`<nav aria-label="Dashboard">
    <ul>${NAV.map(
      (item) => html`<li><a href="${item.href}"${options.signedIn?.section === item.section ? trustedHtml(' aria-current="page"') : ''}>${item.label}</a></li>`,
    )}</ul>
  </nav>
  <form method="post" action="/dashboard/sign-out">
    <input type="hidden" name="csrf" value="${options.signedIn.csrfToken}">
    <button type="submit">Sign out</button>
  </form>`
  }
</header>
<main id="main" tabindex="-1">
${options.body}
</main>
<script nonce="${options.nonce}">${trustedHtml(COPY_SCRIPT)}</script>
</body>
</html>`;

/** The one-time message after a redirect, announced to screen readers. */
export const flashMessage = (flash: Flash | null): HtmlPart => {
  if (flash === null || flash.kind === 'created') return null;
  return flash.kind === 'error'
    ? html`<div class="alert error" role="alert">${flash.message}</div>`
    : html`<div class="alert notice" role="status">${flash.message}</div>`;
};

/** The hidden CSRF field every state-changing form carries. */
export const csrfField = (csrfToken: string): SafeHtml => html`<input type="hidden" name="csrf" value="${csrfToken}">`;

const DATE_TIME = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const NUMBER = new Intl.NumberFormat('en-US');

/** A date as a `<time>` element, in UTC (column headers say so; the ISO value is in `datetime`). */
export const timeOf = (iso: string | null, never = 'Never'): HtmlPart => {
  if (iso === null) return html`<span class="muted">${never}</span>`;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return html`<time datetime="${iso}" title="${iso}">${DATE_TIME.format(date).replace(',', '')}</time>`;
};

export const formatNumber = (value: number): string => NUMBER.format(value);
