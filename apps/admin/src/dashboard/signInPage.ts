import { html, type SafeHtml } from './html.js';

/** The sign-in form; `error` is shown when the token was wrong. */
export const signInPage = (options: { error: string | null; notice: string | null }): SafeHtml => html`<div class="signin">
<h1>Sign in</h1>
<section class="panel">
  ${options.error !== null && html`<div class="alert error" role="alert" id="signin-error">${options.error}</div>`}
  ${options.notice !== null && html`<div class="alert notice" role="status">${options.notice}</div>`}
  <form method="post" action="/dashboard/sign-in" class="stack">
    <div>
      <label for="admin-token">Admin token</label>
      <input type="password" id="admin-token" name="token" required autocomplete="current-password" autofocus aria-describedby="token-hint${options.error === null ? '' : ' signin-error'}"${options.error === null ? '' : html` aria-invalid="true"`}>
      <p class="hint" id="token-hint">The <code>ADMIN_TOKEN</code> of this deployment (printed at start when it was generated).</p>
    </div>
    <div class="actions"><button type="submit">Sign in</button></div>
  </form>
</section>
</div>`;

/** What a blocked address reads instead of the form's usual error (docs/dashboard.md). */
export const tooManySignInsMessage = (retryAfterSeconds: number): string => {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait = retryAfterSeconds < 60 ? `${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}` : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `Too many failed sign-ins from your address. Try again in ${wait}.`;
};
