// SVG charts: pass rate per category with 95 % intervals, and decode speed per model.
import { h, num, pct, ci } from './dom.js';

export const PALETTE = ['#c2410c', '#2563eb', '#059669', '#7c3aed', '#db2777', '#0891b2', '#65a30d', '#9333ea', '#b45309', '#475569'];
export const colorOf = (index) => PALETTE[index % PALETTE.length];

export function legend(models) {
  return h('div', { class: 'legend' }, models.map((m, i) => h('span', null, h('i', { style: { background: colorOf(i) } }), m)));
}

/** Grouped bars: one group per category, one bar per model, whiskers for the Wilson interval. */
export function categoryChart(categories, models) {
  const W = 960;
  const H = 300;
  const m = { left: 44, right: 12, top: 14, bottom: 42 };
  const plotW = W - m.left - m.right;
  const plotH = H - m.top - m.bottom;
  const groupW = plotW / Math.max(1, categories.length);
  const barW = Math.min(34, (groupW * 0.78) / Math.max(1, models.length));
  const y = (rate) => m.top + plotH * (1 - rate);
  const svg = h('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'Pass rate per category with 95% intervals' });
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    svg.append(h('line', { class: tick === 0 ? 'axis' : 'grid', x1: m.left, x2: W - m.right, y1: y(tick), y2: y(tick) }));
    svg.append(h('text', { x: m.left - 8, y: y(tick) + 4, 'text-anchor': 'end' }, pct(tick)));
  }
  categories.forEach((group, gi) => {
    const x0 = m.left + gi * groupW + (groupW - barW * models.length) / 2;
    group.bars.forEach((bar) => {
      const mi = models.indexOf(bar.model);
      const x = x0 + mi * barW;
      const tip = `${bar.model} · ${group.category}: ${bar.rate === null ? 'not graded' : `${pct(bar.rate)} (${bar.passes}/${bar.graded}), 95% CI ${ci(bar.ci95)}`}`;
      if (bar.rate === null) {
        svg.append(h('text', { x: x + barW / 2, y: y(0) - 4, 'text-anchor': 'middle', class: 'faint' }, '–', h('title', null, tip)));
        return;
      }
      const top = y(bar.rate);
      svg.append(
        h('rect', { x: x + 2, y: top, width: Math.max(2, barW - 4), height: Math.max(1, y(0) - top), rx: 3, fill: colorOf(mi), 'fill-opacity': 0.88 }, h('title', null, tip)),
      );
      if (bar.ci95) {
        const cx = x + barW / 2;
        const [lo, hi] = bar.ci95;
        svg.append(h('line', { x1: cx, x2: cx, y1: y(lo), y2: y(hi), stroke: '#1f2937', 'stroke-width': 1.4 }));
        svg.append(h('line', { x1: cx - 4, x2: cx + 4, y1: y(lo), y2: y(lo), stroke: '#1f2937', 'stroke-width': 1.4 }));
        svg.append(h('line', { x1: cx - 4, x2: cx + 4, y1: y(hi), y2: y(hi), stroke: '#1f2937', 'stroke-width': 1.4 }));
      }
    });
    svg.append(h('text', { x: m.left + gi * groupW + groupW / 2, y: H - m.bottom + 20, 'text-anchor': 'middle' }, group.category));
  });
  return h('div', { class: 'chart' }, svg, legend(models));
}

/** Horizontal bars of decode tokens/s per model, with time to first token beside each. */
export function speedChart(speed, models) {
  const rows = speed.filter((s) => s.decode_tps !== null || s.ttft_s !== null);
  if (rows.length === 0) return h('p', { class: 'muted' }, 'No timing data in this run.');
  const W = 960;
  const rowH = 34;
  const m = { left: 180, right: 170, top: 8, bottom: 8 };
  const H = m.top + m.bottom + rowH * rows.length;
  const max = Math.max(1, ...rows.map((r) => r.decode_tps ?? 0));
  const scale = (v) => ((W - m.left - m.right) * v) / max;
  const svg = h('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'Decode speed per model' });
  rows.forEach((r, i) => {
    const y = m.top + i * rowH;
    const mi = models.indexOf(r.model);
    svg.append(h('text', { x: m.left - 10, y: y + rowH / 2 + 4, 'text-anchor': 'end' }, r.model));
    const w = r.decode_tps === null ? 0 : Math.max(2, scale(r.decode_tps));
    svg.append(h('rect', { x: m.left, y: y + 7, width: w, height: rowH - 14, rx: 3, fill: colorOf(mi < 0 ? i : mi), 'fill-opacity': 0.88 }, h('title', null, `${r.model}: ${num(r.decode_tps)} tokens/s (${r.source})`)));
    svg.append(
      h('text', { x: m.left + w + 8, y: y + rowH / 2 + 4 }, `${num(r.decode_tps)} tok/s · first token ${r.ttft_s === null ? '–' : `${num(r.ttft_s, 2)} s`}`),
    );
  });
  return h('div', { class: 'chart' }, svg);
}
