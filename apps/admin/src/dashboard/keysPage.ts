import type { KeyView, PlanView } from '../adminService.js';
import { html, type HtmlPart, type SafeHtml } from './html.js';
import type { KeyFormErrors, KeyFormValues } from './keyForm.js';
import { csrfField, flashMessage, formatNumber, timeOf } from './layout.js';
import type { Flash } from './sessionStore.js';

export const typeBadge = (type: string): SafeHtml => html`<span class="badge ${type === 'live' ? 'live' : 'test'}">${type}</span>`;

const domainList = (domains: readonly string[]): HtmlPart =>
  domains.length === 0 ? html`<span class="muted">Servers only</span>` : html`<span class="domains">${domains.map((domain) => html`<code>${domain}</code>`)}</span>`;

const fieldError = (id: string, message: string | readonly string[] | undefined): HtmlPart => {
  if (message === undefined) return null;
  if (typeof message === 'string') return html`<p class="field-error" id="${id}">${message}</p>`;
  return html`<div class="field-error" id="${id}"><ul>${message.map((line) => html`<li>${line}</li>`)}</ul></div>`;
};

/** Attributes linking an input to its hint and error, and marking it invalid. */
const described = (hintId: string | null, errorId: string, invalid: boolean): SafeHtml =>
  html` aria-describedby="${[hintId, invalid ? errorId : null].filter((part) => part !== null).join(' ')}"${invalid ? html` aria-invalid="true"` : ''}`;

/** Name, domains and rate limit fields, shared by the create and edit forms. */
export const keyFields = (options: { values: KeyFormValues; errors: KeyFormErrors; plan: PlanView; prefix: string }): SafeHtml => {
  const { values, errors, plan, prefix } = options;
  return html`<div>
    <label for="${prefix}-name">Name</label>
    <input type="text" id="${prefix}-name" name="name" value="${values.name}" maxlength="200" required autocomplete="off"${described(null, `${prefix}-name-error`, errors.name !== undefined)}>
    ${fieldError(`${prefix}-name-error`, errors.name)}
  </div>
  <div>
    <label for="${prefix}-domains">Allowed domains</label>
    <input type="text" id="${prefix}-domains" name="domains" value="${values.domains}" placeholder="example.com, *.example.com" autocomplete="off"${described(`${prefix}-domains-hint`, `${prefix}-domains-error`, errors.domains !== undefined)}>
    <p class="hint" id="${prefix}-domains-hint">Comma-separated host names; <code>*.example.com</code> covers subdomains. Leave empty for a key used only by servers: browsers (requests with an Origin) are refused.</p>
    ${fieldError(`${prefix}-domains-error`, errors.domains)}
  </div>
  <div>
    <label for="${prefix}-rate">Rate limit (requests per window)</label>
    <input type="number" id="${prefix}-rate" name="rateLimit" value="${values.rateLimit}" min="1" max="${plan.limits.maxRateLimit}" step="1" placeholder="${plan.limits.defaultRateLimit}" inputmode="numeric"${described(`${prefix}-rate-hint`, `${prefix}-rate-error`, errors.rateLimit !== undefined)}>
    <p class="hint" id="${prefix}-rate-hint">1 to ${formatNumber(plan.limits.maxRateLimit)} on the ${plan.plan} plan; empty means ${formatNumber(plan.limits.defaultRateLimit)}.</p>
    ${fieldError(`${prefix}-rate-error`, errors.rateLimit)}
  </div>`;
};

const newKeyPanel = (flash: Flash | null): HtmlPart => {
  if (flash?.kind !== 'created') return null;
  return html`<section class="newkey" id="new-key" aria-labelledby="new-key-title">
  <h2 id="new-key-title">Your new key “${flash.name}”</h2>
  <p><strong>Copy it now: it will not be shown again.</strong> Pubstream stores only a hash of it; if you lose it, delete the key and create a new one.</p>
  <div class="keyline">
    <label class="sr-only" for="new-key-value">Full API key</label>
    <input type="text" id="new-key-value" value="${flash.key}" readonly data-testid="new-key" size="48">
    <button type="button" data-copy="new-key-value" data-status="copy-status" hidden>Copy key</button>
  </div>
  <p id="copy-status" role="status" class="muted"></p>
</section>`;
};

const keyRow = (key: KeyView): SafeHtml => html`<tr data-key-id="${key.keyId}">
  <th scope="row">${key.name}</th>
  <td>${typeBadge(key.type)}</td>
  <td><code>${key.maskedKey}</code></td>
  <td>${domainList(key.allowedDomains)}</td>
  <td class="num">${formatNumber(key.rateLimit)}</td>
  <td>${timeOf(key.createdAt)}</td>
  <td>${timeOf(key.lastUsedAt)}</td>
  <td class="num" data-testid="request-count">${formatNumber(key.requestCount)}</td>
  <td><div class="actions">
    <a href="/dashboard/keys/${encodeURIComponent(key.keyId)}">Edit<span class="sr-only"> ${key.name}</span></a>
    <a href="/dashboard/usage?key=${encodeURIComponent(key.keyId)}">Usage<span class="sr-only"> of ${key.name}</span></a>
    <a href="/dashboard/keys/${encodeURIComponent(key.keyId)}/delete">Delete<span class="sr-only"> ${key.name}</span></a>
  </div></td>
</tr>`;

/** The keys page: the one-time new key, the table, the create form. */
export const keysPage = (options: { keys: readonly KeyView[]; plan: PlanView; flash: Flash | null; csrfToken: string; values: KeyFormValues; errors: KeyFormErrors }): SafeHtml => {
  const { keys, plan, flash, csrfToken, values, errors } = options;
  const invalid = Object.keys(errors).length > 0;
  return html`<h1>API keys</h1>
${flashMessage(flash)}
${newKeyPanel(flash)}
${invalid && html`<div class="alert error" role="alert">The key was not created: correct the fields marked below.</div>`}
<section class="panel" aria-labelledby="keys-title">
  <h2 id="keys-title">Keys <span class="muted">(${keys.length})</span></h2>
  ${
    keys.length === 0
      ? html`<p class="empty">No keys yet. Create one below.</p>`
      : html`<div class="table-wrap" role="region" aria-labelledby="keys-title" tabindex="0">
  <table>
    <thead><tr>
      <th scope="col">Name</th><th scope="col">Type</th><th scope="col">Key</th><th scope="col">Allowed domains</th>
      <th scope="col" class="num">Rate limit</th><th scope="col">Created (UTC)</th><th scope="col">Last used (UTC)</th><th scope="col" class="num">Requests</th><th scope="col"><span class="sr-only">Actions</span></th>
    </tr></thead>
    <tbody>${keys.map(keyRow)}</tbody>
  </table></div>`
  }
</section>
<section class="panel" aria-labelledby="create-title">
  <h2 id="create-title">Create a key</h2>
  <form method="post" action="/dashboard/keys" class="stack" novalidate>
    ${csrfField(csrfToken)}
    <fieldset${errors.type === undefined ? '' : html` aria-describedby="create-type-error"`}>
      <legend>Type</legend>
      <label><input type="radio" name="type" value="live"${values.type !== 'test' ? html` checked` : ''}> Live <span class="muted">(production traffic, billed)</span></label>
      <label><input type="radio" name="type" value="test"${values.type === 'test' ? html` checked` : ''}> Test <span class="muted">(development, not billed)</span></label>
      ${fieldError('create-type-error', errors.type)}
    </fieldset>
    ${keyFields({ values, errors, plan, prefix: 'create' })}
    <div class="actions"><button type="submit">Create key</button></div>
  </form>
</section>`;
};

/** Edit one key's name, domains and rate limit. */
export const keyEditPage = (options: { key: KeyView; plan: PlanView; csrfToken: string; values: KeyFormValues; errors: KeyFormErrors }): SafeHtml => {
  const { key, plan, csrfToken, values, errors } = options;
  const invalid = Object.keys(errors).length > 0;
  return html`<p><a href="/dashboard/keys">← All keys</a></p>
<h1>Edit key “${key.name}”</h1>
${invalid && html`<div class="alert error" role="alert">Nothing was saved: correct the fields marked below.</div>`}
<section class="panel">
  <p>${typeBadge(key.type)} <code>${key.maskedKey}</code> · created ${timeOf(key.createdAt)} UTC</p>
  <form method="post" action="/dashboard/keys/${encodeURIComponent(key.keyId)}" class="stack" novalidate>
    ${csrfField(csrfToken)}
    ${keyFields({ values, errors, plan, prefix: 'edit' })}
    <div class="actions"><button type="submit">Save changes</button> <a class="button secondary" href="/dashboard/keys">Cancel</a></div>
  </form>
</section>`;
};

/** The confirmation step before a key is deleted. */
export const keyDeletePage = (options: { key: KeyView; csrfToken: string }): SafeHtml => {
  const { key, csrfToken } = options;
  return html`<p><a href="/dashboard/keys">← All keys</a></p>
<h1>Delete key “${key.name}”?</h1>
<section class="panel">
  <p>${typeBadge(key.type)} <code>${key.maskedKey}</code> · ${formatNumber(key.requestCount)} requests so far · last used ${timeOf(key.lastUsedAt)}</p>
  <p><strong>Every request with this key is refused (401) as soon as you confirm.</strong> This cannot be undone; apps using it need a new key.</p>
  <form method="post" action="/dashboard/keys/${encodeURIComponent(key.keyId)}/delete" class="actions">
    ${csrfField(csrfToken)}
    <button type="submit" class="danger">Delete this key</button>
    <a class="button secondary" href="/dashboard/keys" autofocus>Cancel</a>
  </form>
</section>`;
};
