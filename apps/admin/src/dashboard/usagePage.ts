import type { KeyUsageReport } from '../usageReport.js';
import { html, type SafeHtml } from './html.js';
import { typeBadge } from './keysPage.js';
import { formatNumber } from './layout.js';
import { pointsFromBuckets, usageBarChart } from './usageChart.js';

export interface UsagePageData {
  /** Last 24 hours, hourly buckets. */
  readonly hourly: readonly KeyUsageReport[];
  /** Last 30 days, daily buckets. */
  readonly daily: readonly KeyUsageReport[];
  /** Last 12 months, monthly buckets (every key; only live keys are billed). */
  readonly monthly: readonly KeyUsageReport[];
  /** Every key, for the filter. */
  readonly allKeys: readonly { keyId: string; name: string; type: string }[];
  readonly selectedKeyId: string | null;
}

const sum = (reports: readonly KeyUsageReport[]) => reports.reduce((total, report) => total + report.total, 0);

const monthName = (bucket: string): string => {
  const date = new Date(`${bucket}-01T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? bucket : new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
};

const monthlyTable = (monthly: readonly KeyUsageReport[]): SafeHtml => {
  const live = monthly.filter((report) => report.type === 'live');
  if (live.length === 0) return html`<p class="empty">No live keys yet: test keys are not billed.</p>`;
  const buckets = (live[0]?.series ?? []).map((point) => point.bucket);
  // Months before the first request are left out (the current month always shows).
  const first = buckets.findIndex((bucket) => live.some((report) => report.series.some((point) => point.bucket === bucket && point.count > 0)));
  const months = buckets.slice(first === -1 ? Math.max(buckets.length - 1, 0) : first).reverse();
  const countOf = (report: KeyUsageReport, bucket: string) => report.series.find((point) => point.bucket === bucket)?.count ?? 0;
  return html`<div class="table-wrap" role="region" aria-labelledby="monthly-title" tabindex="0"><table>
  <thead><tr><th scope="col">Month</th>${live.map((report) => html`<th scope="col" class="num">${report.name} <span class="sr-only">(${report.maskedKey})</span></th>`)}<th scope="col" class="num">All live keys</th></tr></thead>
  <tbody>${months.map(
    (bucket) =>
      html`<tr><th scope="row">${monthName(bucket)}</th>${live.map((report) => html`<td class="num">${formatNumber(countOf(report, bucket))}</td>`)}<td class="num"><strong>${formatNumber(
        live.reduce((total, report) => total + countOf(report, bucket), 0),
      )}</strong></td></tr>`,
  )}</tbody>
</table></div>`;
};

/** Requests over time per key (24 h hourly, 30 days daily) and the monthly totals of live keys. */
export const usagePage = (data: UsagePageData): SafeHtml => {
  const liveThisMonth = data.monthly.filter((report) => report.type === 'live').reduce((total, report) => total + (report.series.at(-1)?.count ?? 0), 0);
  return html`<h1>Usage</h1>
<div class="cards">
  <div class="card"><div class="value">${formatNumber(sum(data.hourly))}</div><div class="label">Requests, last 24 hours${data.selectedKeyId === null ? '' : ' (this key)'}</div></div>
  <div class="card"><div class="value">${formatNumber(sum(data.daily))}</div><div class="label">Requests, last 30 days${data.selectedKeyId === null ? '' : ' (this key)'}</div></div>
  <div class="card"><div class="value">${formatNumber(liveThisMonth)}</div><div class="label">Billed (live) requests this month</div></div>
</div>
<form method="get" action="/dashboard/usage" class="panel actions" aria-label="Choose a key">
  <label for="usage-key">Key</label>
  <select id="usage-key" name="key">
    <option value="">All keys</option>
    ${data.allKeys.map((key) => html`<option value="${key.keyId}"${key.keyId === data.selectedKeyId ? html` selected` : ''}>${key.name} (${key.type})</option>`)}
  </select>
  <button type="submit" class="secondary">Show</button>
</form>
${
  data.hourly.length === 0
    ? html`<section class="panel"><p class="empty">No keys yet, so no usage. <a href="/dashboard/keys">Create a key</a>.</p></section>`
    : data.hourly.map((report, index) => {
        const daily = data.daily.find((entry) => entry.keyId === report.keyId);
        return html`<section class="panel" aria-labelledby="usage-${index}-title">
  <h2 id="usage-${index}-title">${report.name} ${typeBadge(report.type)} <code class="muted">${report.maskedKey}</code></h2>
  <p class="muted">${formatNumber(report.requestCount)} requests since the key was created.</p>
  <div class="charts">
    ${usageBarChart({ id: `usage-${index}-24h`, caption: `Last 24 hours, per hour (UTC): ${formatNumber(report.total)} requests`, points: pointsFromBuckets(report.series), tickEvery: 4 })}
    ${daily && usageBarChart({ id: `usage-${index}-30d`, caption: `Last 30 days, per day: ${formatNumber(daily.total)} requests`, points: pointsFromBuckets(daily.series), tickEvery: 5 })}
  </div>
</section>`;
      })
}
<section class="panel" aria-labelledby="monthly-title">
  <h2 id="monthly-title">Monthly totals of live keys</h2>
  <p class="muted">Live-key requests are what the plan's monthly usage counts; test keys are left out.</p>
  ${monthlyTable(data.monthly)}
</section>`;
};
