// SVG charts: pass rate per category with 95 % intervals, and decode speed per model.
import { add, ci, h, num, pct, secs } from './dom.js';

export const PALETTE = ['#c2410c', '#2563eb', '#059669', '#7c3aed', '#db2777', '#0891b2', '#65a30d', '#9333ea', '#b45309', '#475569'];
export const colorOf = (index) => PALETTE[index % PALETTE.length];

export function legend(models) {
  return h('div', { class: 'legend' }, models.map((m, i) => h('span', null, h('i', { style: { background: colorOf(i) } }), m)));
}

/** Grouped bars: one group per category, one bar per model, whiskers for the Wilson interval. */
export function categoryChart(categories, models) {
  const W = 1120;
  const H = 270;
  const m = { left: 48, right: 16, top: 14, bottom: 36 };
  const plotW = W - m.left - m.right;
  const plotH = H - m.top - m.bottom;
  const barW = Math.min(40, (plotW * 0.8) / Math.max(1, categories.length * models.length));
  const groupW = Math.min(plotW / Math.max(1, categories.length), barW * models.length + 70);
  const offset = m.left + (plotW - groupW * categories.length) / 2;
  const y = (rate) => m.top + plotH * (1 - rate);
  const svg = h('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'Pass rate per category with 95% intervals' });
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    add(svg, h('line', { class: tick === 0 ? 'axis' : 'grid', x1: m.left, x2: W - m.right, y1: y(tick), y2: y(tick) }));
    add(svg, h('text', { x: m.left - 8, y: y(tick) + 4, 'text-anchor': 'end' }, pct(tick)));
  }
  categories.forEach((group, gi) => {
    const x0 = offset + gi * groupW + (groupW - barW * models.length) / 2;
    group.bars.forEach((bar) => {
      const mi = models.indexOf(bar.model);
      const x = x0 + mi * barW;
      const tip = `${bar.model} · ${group.category}: ${bar.rate === null ? 'not graded' : `${pct(bar.rate)} (${bar.passes}/${bar.graded}), 95% CI ${ci(bar.ci95)}`}`;
      if (bar.rate === null) {
        add(svg, h('text', { x: x + barW / 2, y: y(0) - 4, 'text-anchor': 'middle' }, '–', h('title', null, tip)));
        return;
      }
      const top = Math.min(y(bar.rate), y(0) - 3);
      add(svg, h('rect', { x: x + 3, y: top, width: Math.max(3, barW - 6), height: y(0) - top, rx: 3, fill: colorOf(mi), 'fill-opacity': 0.9 }, h('title', null, tip)));
      if (bar.ci95) {
        const cx = x + barW / 2;
        const [lo, hi] = bar.ci95;
        for (const [x1, x2, y1, y2] of [[cx, cx, y(lo), y(hi)], [cx - 5, cx + 5, y(lo), y(lo)], [cx - 5, cx + 5, y(hi), y(hi)]]) {
          add(svg, h('line', { x1, x2, y1, y2, stroke: '#1f2937', 'stroke-width': 1.5 }));
        }
      }
    });
    add(svg, h('text', { x: offset + gi * groupW + groupW / 2, y: H - m.bottom + 20, 'text-anchor': 'middle', class: 'label' }, group.category));
  });
  return h('div', { class: 'chart' }, svg, legend(models));
}

/** Horizontal bars of decode tokens/s per model, with time to first token beside each. */
export function speedChart(speed, models) {
  const rows = speed.filter((s) => s.decode_tps !== null || s.ttft_s !== null);
  if (rows.length === 0) return h('p', { class: 'muted' }, 'No timing data in this run.');
  const W = 560;
  const rowH = 32;
  const m = { left: 110, right: 170, top: 6, bottom: 6 };
  const H = m.top + m.bottom + rowH * rows.length;
  const max = Math.max(1, ...rows.map((r) => r.decode_tps ?? 0));
  const scale = (v) => ((W - m.left - m.right) * v) / max;
  const svg = h('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'Decode speed per model' });
  rows.forEach((r, i) => {
    const y = m.top + i * rowH;
    const mi = models.indexOf(r.model);
    add(svg, h('text', { x: m.left - 10, y: y + rowH / 2 + 4, 'text-anchor': 'end' }, r.model));
    const w = r.decode_tps === null ? 0 : Math.max(2, scale(r.decode_tps));
    add(svg, h('rect', { x: m.left, y: y + 7, width: w, height: rowH - 14, rx: 3, fill: colorOf(mi < 0 ? i : mi), 'fill-opacity': 0.88 }, h('title', null, `${r.model}: ${num(r.decode_tps)} tokens/s (${r.source})`)));
    add(svg, 
      h('text', { x: m.left + w + 8, y: y + rowH / 2 + 4 }, `${num(r.decode_tps)} tok/s · TTFT ${secs(r.ttft_s)}`),
    );
  });
  return h('div', { class: 'chart' }, svg);
}
