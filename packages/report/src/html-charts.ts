import { cellText, pct, secondsText, tpsText } from './format';
import { html, type SafeHtml } from './html-escape';
import type { ModelSummary, RateCell } from './types';

/** Tableau-10: distinct, colour-blind-friendlier than the defaults, readable on light and dark. */
const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

export function modelColour(index: number): string {
  return PALETTE[index % PALETTE.length] ?? '#4e79a7';
}

function shorten(label: string, max: number): string {
  return label.length <= max ? label : `${label.slice(0, max - 1)}…`;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/** One horizontal bar per model: pass rate with its 95 % Wilson whisker. */
export function barChart(
  title: string,
  category: string,
  models: readonly ModelSummary[],
  cellOf: (m: ModelSummary) => RateCell | undefined,
): SafeHtml {
  const rowH = 28;
  const labelW = 128;
  const barW = 200;
  const valueW = 96;
  const top = 8;
  const width = labelW + barW + valueW;
  const height = top + rowH * models.length + 18;
  const x = (rate: number): number => labelW + rate * barW;
  const grid = [0, 0.25, 0.5, 0.75, 1].map(
    (g) => html`<line class="grid" x1="${round(x(g))}" x2="${round(x(g))}" y1="${top - 4}" y2="${height - 16}"/>
<text class="tick" x="${round(x(g))}" y="${height - 4}" text-anchor="middle">${Math.round(g * 100)}</text>`,
  );
  const bars = models.map((m, i) => {
    const cell = cellOf(m);
    const y = top + i * rowH;
    const mid = y + rowH / 2;
    const tip = cell?.ci95
      ? `${m.model}: ${cellText(cell)}, 95 % CI ${pct(cell.ci95[0])}–${pct(cell.ci95[1])}`
      : `${m.model}: ${cellText(cell)}`;
    const label = html`<text class="label" x="${labelW - 8}" y="${mid + 4}" text-anchor="end">${shorten(m.model, 18)}</text>`;
    if (cell?.rate == null || cell.ci95 === null) {
      return html`<g><title>${tip}</title>${label}<text class="value muted" x="${labelW + 4}" y="${mid + 4}">${cell ? 'not graded' : 'not run'}</text></g>`;
    }
    const [low, high] = cell.ci95;
    return html`<g><title>${tip}</title>${label}
<rect x="${labelW}" y="${y + 6}" width="${round(barW)}" height="${rowH - 12}" rx="3" class="track"/>
<rect x="${labelW}" y="${y + 6}" width="${round(cell.rate * barW)}" height="${rowH - 12}" rx="3" fill="${modelColour(m.rank - 1)}"/>
<line class="whisker" x1="${round(x(low))}" x2="${round(x(high))}" y1="${mid}" y2="${mid}"/>
<line class="whisker" x1="${round(x(low))}" x2="${round(x(low))}" y1="${mid - 5}" y2="${mid + 5}"/>
<line class="whisker" x1="${round(x(high))}" x2="${round(x(high))}" y1="${mid - 5}" y2="${mid + 5}"/>
<text class="value" x="${labelW + barW + 8}" y="${mid + 4}">${cellText(cell)}</text></g>`;
  });
  return html`<figure class="chart" data-cat="${category}">
<figcaption>${title}</figcaption>
<svg viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${title} pass rate per model">${grid}${bars}</svg>
</figure>`;
}

function niceStep(max: number, ticks: number): number {
  const raw = max / ticks;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / mag;
  return (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 2.5 ? 2.5 : norm <= 5 ? 5 : 10) * mag;
}

function axis(max: number): { max: number; ticks: number[] } {
  if (!(max > 0)) return { max: 1, ticks: [0, 0.5, 1] };
  const step = niceStep(max * 1.08, 5);
  const top = Math.ceil((max * 1.08) / step) * step;
  const ticks: number[] = [];
  for (let t = 0; t <= top + step / 2; t += step) ticks.push(Number(t.toPrecision(6)));
  return { max: top, ticks };
}

/** TTFT (y, lower is better) against decode T/s (x, higher is better), one labelled point per model. */
export function speedScatter(models: readonly ModelSummary[]): SafeHtml {
  const points = models.filter((m) => m.speed?.decode_tps != null && m.speed.ttft_s != null);
  const missing = models.filter((m) => !points.includes(m));
  if (points.length === 0) {
    return html`<p class="muted">No speed data: run <code>crucibleforge speed</code> to fill this chart.</p>`;
  }
  const W = 720;
  const H = 380;
  const m = { left: 64, right: 150, top: 20, bottom: 52 };
  const xs = axis(Math.max(...points.map((p) => p.speed?.decode_tps ?? 0)));
  const ys = axis(Math.max(...points.map((p) => p.speed?.ttft_s ?? 0)));
  const px = (v: number): number => m.left + (v / xs.max) * (W - m.left - m.right);
  const py = (v: number): number => H - m.bottom - (v / ys.max) * (H - m.top - m.bottom);
  const xTicks = xs.ticks.map(
    (t) => html`<line class="grid" x1="${round(px(t))}" x2="${round(px(t))}" y1="${m.top}" y2="${H - m.bottom}"/>
<text class="tick" x="${round(px(t))}" y="${H - m.bottom + 18}" text-anchor="middle">${t}</text>`,
  );
  const yTicks = ys.ticks.map(
    (t) => html`<line class="grid" x1="${m.left}" x2="${W - m.right}" y1="${round(py(t))}" y2="${round(py(t))}"/>
<text class="tick" x="${m.left - 8}" y="${round(py(t) + 4)}" text-anchor="end">${t}</text>`,
  );
  const dots = points.map((p) => {
    const tps = p.speed?.decode_tps ?? 0;
    const ttft = p.speed?.ttft_s ?? 0;
    const cx = px(tps);
    const cy = py(ttft);
    const source = p.speed?.source === 'bench-rows' ? ' (bench rows)' : '';
    return html`<g class="point" data-model="${p.model}"><title>${p.model}: ${tpsText(tps)} T/s, TTFT ${secondsText(ttft)}${source}</title>
<circle cx="${round(cx)}" cy="${round(cy)}" r="7" fill="${modelColour(p.rank - 1)}"/>
<text class="label" x="${round(cx + 11)}" y="${round(cy + 4)}">${shorten(p.model, 20)}${source === '' ? '' : ' *'}</text></g>`;
  });
  return html`<figure class="scatter">
<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="Time to first token against decode speed">
${xTicks}${yTicks}
<line class="axis" x1="${m.left}" x2="${W - m.right}" y1="${H - m.bottom}" y2="${H - m.bottom}"/>
<line class="axis" x1="${m.left}" x2="${m.left}" y1="${m.top}" y2="${H - m.bottom}"/>
<text class="axis-title" x="${(m.left + W - m.right) / 2}" y="${H - 10}" text-anchor="middle">decode speed, tokens/s (further right is faster)</text>
<text class="axis-title" transform="translate(18 ${(m.top + H - m.bottom) / 2}) rotate(-90)" text-anchor="middle">time to first token, s (lower is better)</text>
${dots}
</svg>
${missing.length > 0 ? html`<figcaption class="muted">Not plotted (no speed data): ${missing.map((x) => x.model).join(', ')}</figcaption>` : ''}
</figure>`;
}
