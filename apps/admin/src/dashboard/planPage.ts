import { PLANS, planNameSchema } from '@pubstream/domain';
import type { PlanView } from '../adminService.js';
import { html, type SafeHtml } from './html.js';
import { csrfField, flashMessage, formatNumber } from './layout.js';
import type { Flash } from './sessionStore.js';

const title = (plan: string) => plan.charAt(0).toUpperCase() + plan.slice(1);

const reactiveBadge = (on: boolean): SafeHtml => html`<span class="badge ${on ? 'on' : 'off'}">${on ? 'on' : 'off'}</span>`;

/** The current plan, every plan's limits side by side, and the switch. */
export const planPage = (options: { plan: PlanView; flash: Flash | null; csrfToken: string }): SafeHtml => {
  const { plan, flash, csrfToken } = options;
  const names = planNameSchema.options;
  return html`<h1>Plan</h1>
${flashMessage(flash)}
<div class="cards">
  <div class="card current"><div class="value">${title(plan.plan)}</div><div class="label">Current plan</div></div>
  <div class="card"><div class="value">${plan.limits.reactive ? 'On' : 'Off'}</div><div class="label">Reactive mode (live subscriptions)</div></div>
  <div class="card"><div class="value">${formatNumber(plan.limits.maxRateLimit)}</div><div class="label">Highest rate limit per key</div></div>
  <div class="card"><div class="value">${plan.monthlyQuota === null ? 'None' : formatNumber(plan.monthlyQuota)}</div><div class="label">Monthly quota (live requests)</div></div>
</div>
<section class="panel" aria-labelledby="plans-title">
  <h2 id="plans-title">Plans</h2>
  <table>
    <thead><tr><th scope="col">Plan</th><th scope="col" class="num">Default rate limit</th><th scope="col" class="num">Maximum rate limit</th><th scope="col">Reactive mode</th><th scope="col" class="num">Streams per key</th></tr></thead>
    <tbody>${names.map((name) => {
      const limits = PLANS[name];
      return html`<tr${name === plan.plan ? html` aria-current="true"` : ''}><th scope="row">${title(name)}${name === plan.plan ? html` <span class="badge on">current</span>` : ''}</th>
        <td class="num">${formatNumber(limits.defaultRateLimit)}</td><td class="num">${formatNumber(limits.maxRateLimit)}</td>
        <td>${reactiveBadge(limits.reactive)}</td><td class="num">${formatNumber(limits.maxStreamsPerKey)}</td></tr>`;
    })}</tbody>
  </table>
</section>
<section class="panel" aria-labelledby="switch-title">
  <h2 id="switch-title">Switch plan</h2>
  <form method="post" action="/dashboard/plan" class="actions">
    ${csrfField(csrfToken)}
    <label for="plan-select">New plan</label>
    <select id="plan-select" name="plan">${names.map((name) => html`<option value="${name}"${name === plan.plan ? html` selected` : ''}>${title(name)}</option>`)}</select>
    <button type="submit">Switch plan</button>
  </form>
  <p class="hint">Keys above the new plan's maximum rate limit must be lowered first; a downgrade never changes what existing keys allow behind your back.</p>
</section>`;
};
