import type { Line } from './panels.js';

interface DashboardPanel {
  readonly title: string;
  readonly type: string;
  readonly gridPos: { h: number; w: number; x: number; y: number };
  readonly fieldConfig: { defaults: { unit: string } };
}

const COLORS = ['#73BF69', '#F2CC0C', '#5794F2', '#FF780A', '#B877D9', '#FF7383', '#8AB8FF'];
const COL = 1400 / 24;
const ROW = 34;

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const format = (value: number, unit: string): string => {
  if (unit === 's') return value >= 1 ? `${value.toFixed(2)} s` : value >= 0.001 ? `${(value * 1000).toFixed(value < 0.01 ? 2 : 0)} ms` : `${(value * 1e6).toFixed(0)} µs`;
  const suffix = unit === 'ops' ? '/s' : unit === 'reqps' ? ' req/s' : '';
  const text = Math.abs(value) >= 1000 ? `${(value / 1000).toFixed(1)}k` : Number.isInteger(value) ? String(value) : value.toFixed(value < 10 ? 2 : 1);
  return `${text}${suffix}`;
};

const clock = (ms: number): string => new Date(ms).toISOString().slice(11, 19);

/** One time-series panel as SVG: grid, y labels, x clock labels, one polyline per line, legend. */
const timeseries = (lines: readonly Line[], times: readonly number[], unit: string, width: number, height: number): string => {
  const [left, right, top, bottom] = [78, 30, 8, 44];
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const all = lines.flatMap((line) => line.values.filter((v): v is number => v !== null));
  const max = Math.max(...all, 0) || 1;
  const x = (i: number) => left + (plotW * i) / Math.max(1, times.length - 1);
  const y = (v: number) => top + plotH - (plotH * v) / max;
  const grid = [0, 0.5, 1]
    .map((f) => `<line x1="${left}" x2="${width - right}" y1="${y(max * f)}" y2="${y(max * f)}" class="grid"/><text x="${left - 6}" y="${y(max * f) + 4}" class="axis" text-anchor="end">${escape(format(max * f, unit))}</text>`)
    .join('');
  const ticks = [0, Math.floor(times.length / 2), times.length - 1]
    .map((i, n) => `<text x="${x(i)}" y="${top + plotH + 16}" class="axis" text-anchor="${['start', 'middle', 'end'][n]}">${clock(times[i] ?? 0)}</text>`)
    .join('');
  const paths = lines
    .map((line, n) => {
      const points = line.values.map((v, i) => (v === null ? null : `${x(i).toFixed(1)},${y(v).toFixed(1)}`)).filter(Boolean);
      return points.length > 0 ? `<polyline points="${points.join(' ')}" fill="none" stroke="${COLORS[n % COLORS.length]}" stroke-width="1.6"/>` : '';
    })
    .join('');
  const legend = lines
    .map((line, n) => `<tspan fill="${COLORS[n % COLORS.length]}">━ </tspan><tspan>${escape(line.legend)}</tspan><tspan dx="14"> </tspan>`)
    .join('');
  return `<svg width="${width}" height="${height}">${grid}${ticks}${paths}<text x="${left}" y="${height - 8}" class="legend">${legend || 'No data'}</text></svg>`;
};

/** The dashboard as a page styled like Grafana's dark theme: panels placed by their gridPos. */
export const renderDashboard = (dashboard: { title: string; panels: DashboardPanel[] }, lines: Record<string, Line[]>, times: readonly number[], note: string): string => {
  const panels = dashboard.panels
    .map((panel) => {
      const { x, y, w, h } = panel.gridPos;
      const [width, height] = [w * COL - 8, h * ROW - 8];
      const panelLines = lines[panel.title] ?? [];
      const unit = panel.fieldConfig.defaults.unit;
      const last = panelLines[0]?.values.filter((v): v is number => v !== null).at(-1);
      const body =
        panel.type === 'stat'
          ? `<div class="stat">${last === undefined ? 'No data' : escape(format(last, unit))}</div>`
          : timeseries(panelLines, times, unit, width - 16, height - 34);
      return `<div class="panel" style="left:${x * COL}px;top:${y * ROW}px;width:${width}px;height:${height}px"><div class="title">${escape(panel.title)}</div>${body}</div>`;
    })
    .join('\n');
  const bottom = Math.max(...dashboard.panels.map((p) => (p.gridPos.y + p.gridPos.h) * ROW));
  return `<!doctype html><meta charset="utf-8"><title>${escape(dashboard.title)}</title>
<style>
body{margin:0;background:#111217;color:#ccccdc;font:13px Inter,Helvetica,Arial,sans-serif}
header{padding:12px 16px;border-bottom:1px solid #2c2d33;display:flex;justify-content:space-between}
header b{font-size:18px;color:#fff} header span{color:#8e8e9e}
main{position:relative;margin:8px;height:${bottom}px}
.panel{position:absolute;background:#181b1f;border:1px solid #2c2d33;border-radius:2px;padding:6px 8px;box-sizing:content-box}
.title{font-weight:500;color:#ccccdc;margin-bottom:4px}
.grid{stroke:#2c2d33} .axis{fill:#8e8e9e;font-size:11px} .legend{fill:#ccccdc;font-size:11px}
.stat{font-size:34px;color:#73BF69;font-weight:500;padding:4px 8px}
footer{color:#8e8e9e;padding:0 16px 12px;font-size:12px}
</style>
<header><b>${escape(dashboard.title)}</b><span>${clock(times[0] ?? 0)} – ${clock(times.at(-1) ?? 0)} UTC · refresh 1 s</span></header>
<main>${panels}</main><footer>${escape(note)}</footer>`;
};
