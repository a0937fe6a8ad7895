import { escapeHtml, html, trustedHtml, type SafeHtml } from './html.js';
import { formatNumber } from './layout.js';

export interface ChartPoint {
  /** Full label for tooltips and the table, e.g. `2026-11-23 14:00 UTC`. */
  readonly label: string;
  /** Axis label, e.g. `14:00`. */
  readonly tick: string;
  readonly count: number;
}

const WIDTH = 640;
const HEIGHT = 220;
const LEFT = 52;
const RIGHT = 10;
const TOP = 14;
const BOTTOM = 30;

/** The smallest 1, 2 or 5 × 10ⁿ at or above the value, so gridlines fall on round numbers. */
export const niceCeiling = (value: number): number => {
  if (value <= 4) return 4;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Chart points from hour (`YYYY-MM-DDTHH`) or day (`YYYY-MM-DD`) usage buckets. */
export const pointsFromBuckets = (series: readonly { bucket: string; count: number }[]): ChartPoint[] =>
  series.map(({ bucket, count }) => {
    const [date = bucket, hour] = bucket.split('T');
    const [, month = '01', day = '01'] = date.split('-');
    const dayLabel = `${Number(day)} ${MONTHS[Number(month) - 1] ?? month}`;
    return hour === undefined
      ? { label: `${date} (UTC)`, tick: dayLabel, count }
      : { label: `${date} ${hour}:00 UTC`, tick: `${hour}:00`, count };
  });

/**
 * A bar chart as inline SVG (drawn on the server, no script), described for screen readers, with
 * the same numbers in a table below it. Colours are presentation attributes: the page's CSP
 * allows no inline style attributes.
 */
export const usageBarChart = (options: { readonly id: string; readonly caption: string; readonly points: readonly ChartPoint[]; readonly tickEvery: number }): SafeHtml => {
  const { id, caption, points, tickEvery } = options;
  const total = points.reduce((sum, point) => sum + point.count, 0);
  const peak = points.reduce((max, point) => Math.max(max, point.count), 0);
  const top = niceCeiling(peak);
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = plotWidth / Math.max(points.length, 1);
  const barWidth = Math.max(1, slot * 0.72);
  const y = (value: number) => TOP + plotHeight - (value / top) * plotHeight;

  const parts: string[] = [];
  for (let step = 0; step <= 4; step++) {
    const value = (top / 4) * step;
    const lineY = y(value).toFixed(1);
    parts.push(`<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${lineY}" y2="${lineY}" stroke="${step === 0 ? '#8c959f' : '#e4e8ec'}" stroke-width="1"/>`);
    parts.push(`<text x="${LEFT - 6}" y="${(Number(lineY) + 4).toFixed(1)}" text-anchor="end" font-size="11" fill="#57606a">${escapeHtml(formatNumber(Math.round(value * 10) / 10))}</text>`);
  }
  points.forEach((point, index) => {
    const x = LEFT + index * slot + (slot - barWidth) / 2;
    const barTop = y(point.count);
    const height = TOP + plotHeight - barTop;
    if (point.count > 0) {
      parts.push(
        `<rect x="${x.toFixed(1)}" y="${barTop.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${Math.max(height, 1).toFixed(1)}" rx="2" fill="#0b5cad"><title>${escapeHtml(`${point.label}: ${formatNumber(point.count)} requests`)}</title></rect>`,
      );
    }
    if (index % tickEvery === 0) {
      parts.push(`<text x="${(LEFT + index * slot + slot / 2).toFixed(1)}" y="${HEIGHT - 10}" text-anchor="middle" font-size="11" fill="#57606a">${escapeHtml(point.tick)}</text>`);
    }
  });
  const description = `${formatNumber(total)} requests in total, at most ${formatNumber(peak)} in one period. The table below lists every value.`;

  return html`<figure>
  <figcaption id="${id}-title">${caption}</figcaption>
  <svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${id}-title ${id}-desc" xmlns="http://www.w3.org/2000/svg">
    <desc id="${id}-desc">${description}</desc>
    ${trustedHtml(parts.join(''))}
  </svg>
  <details>
    <summary>${caption}: data table</summary>
    <table>
      <thead><tr><th scope="col">Period</th><th scope="col" class="num">Requests</th></tr></thead>
      <tbody>${points.map((point) => html`<tr><td>${point.label}</td><td class="num">${formatNumber(point.count)}</td></tr>`)}</tbody>
    </table>
  </details>
</figure>`;
};
