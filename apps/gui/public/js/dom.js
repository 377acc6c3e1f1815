// Small DOM helpers. Every text goes in through text nodes (never innerHTML): model output is untrusted.

const SVG_NS = 'http://www.w3.org/2000/svg';
const SVG_TAGS = new Set(['svg', 'g', 'rect', 'line', 'text', 'title', 'path', 'circle']);

/** h('div', { class: 'x', onclick: fn }, 'text', child, [more]) */
export function h(tag, props, ...children) {
  const svg = SVG_TAGS.has(tag);
  const el = svg ? document.createElementNS(SVG_NS, tag) : document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'style') Object.assign(el.style, value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (!svg && (key === 'checked' || key === 'value' || key === 'disabled' || key === 'selected' || key === 'open')) el[key] = value;
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** el.append(...) that skips null/false and flattens arrays (the native one would print "null"). */
export function add(el, ...children) {
  return append(el, children);
}

/** Replaces el's children (same rules as add). */
export function put(el, ...children) {
  return append(clear(el), children);
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/** A route link: `#/runs/<id>` with parts encoded. */
export function href(...parts) {
  return `#/${parts.map((p) => encodeURIComponent(String(p))).join('/')}`;
}

export const pct = (rate, digits = 0) => (rate === null || rate === undefined ? '–' : `${(rate * 100).toFixed(digits)}%`);
export const ci = (pair) => (pair ? `${Math.round(pair[0] * 100)}–${Math.round(pair[1] * 100)}%` : '');
export const num = (value, digits = 1) => (value === null || value === undefined || Number.isNaN(value) ? '–' : Number(value).toFixed(digits));
export const usd = (value) =>
  value === null || value === undefined ? '–' : value === 0 ? '$0' : value < 0.01 ? `$${Number(value.toPrecision(2))}` : `$${value.toFixed(2)}`;
export const secs = (value) => (value === null || value === undefined ? '–' : value < 1 ? `${Math.round(value * 1000)} ms` : `${value.toFixed(value < 10 ? 2 : 1)} s`);

export function duration(seconds) {
  if (seconds === null || seconds === undefined) return '–';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

export function when(iso) {
  if (!iso) return '–';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function badge(status, text) {
  return h('span', { class: `badge ${status}` }, text ?? status);
}

export function notice(kind, ...children) {
  return h('div', { class: `notice ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, ...children);
}

/** A rate with counts, its 95 % interval, and a small interval bar. */
export function rateCell(cell, { bar = true } = {}) {
  if (!cell || cell.rate === null) return h('span', { class: 'faint' }, cell && cell.attempted ? `– (${cell.attempted} ungraded)` : '–');
  const parts = [h('span', { class: 'rate' }, pct(cell.rate), h('small', null, `${cell.passes}/${cell.graded}`))];
  if (cell.ci95) {
    parts.push(h('span', { class: 'ci', title: '95 % Wilson interval' }, `95% CI ${ci(cell.ci95)}`));
    if (bar) {
      parts.push(
        h('div', { class: 'cibar' },
          h('div', { class: 'range', style: { left: `${cell.ci95[0] * 100}%`, width: `${(cell.ci95[1] - cell.ci95[0]) * 100}%` } }),
          h('div', { class: 'point', style: { left: `calc(${cell.rate * 100}% - 1px)` } })),
      );
    }
  }
  return h('div', null, parts);
}

export function statBox(label, value, hint) {
  return h('div', { class: 'stat' }, h('div', { class: 'label' }, label), h('div', { class: 'value' }, value), hint ? h('div', { class: 'hint' }, hint) : null);
}
