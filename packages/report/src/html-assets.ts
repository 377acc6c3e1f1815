/** The board's stylesheet and script: constants, no data inside (data lives in escaped markup only). */

export const BOARD_CSS = `
:root{--bg:#f6f7f9;--panel:#fff;--ink:#1b1f24;--muted:#5f6b7a;--line:#e3e7ec;--head:#f0f2f5;--accent:#3b6fd8;
--warn-bg:#fff7e6;--warn-line:#f0c36d;--good:#1f7a3f;--bad:#b3261e;--cell-l:93%;--cell-s:62%;--code:#f3f4f6;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#111418;--panel:#181c21;--ink:#e6e9ed;--muted:#9aa5b1;--line:#2a3038;
--head:#1f242b;--accent:#7aa2f7;--warn-bg:#2b2410;--warn-line:#7a5d12;--good:#5fd08a;--bad:#ff8a80;--cell-l:21%;--cell-s:34%;--code:#0f1216}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font-size:14px;line-height:1.45}
main{max-width:1720px;margin:0 auto;padding:24px 28px 48px}
header.top{display:flex;align-items:baseline;gap:16px;flex-wrap:wrap;margin-bottom:4px}
h1{font-size:24px;margin:0;letter-spacing:-.01em}
h1 span{color:var(--accent)}
h2{font-size:17px;margin:0 0 12px}
.meta{color:var(--muted);margin:0 0 18px}
section.panel{background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:18px 20px;margin:0 0 18px;box-shadow:0 1px 2px rgba(0,0,0,.04)}
.muted{color:var(--muted)}
.note{color:var(--muted);font-size:12.5px;margin:10px 0 0}
.warn{background:var(--warn-bg);border:1px solid var(--warn-line);border-radius:10px;padding:12px 18px;margin:0 0 18px}
.warn h2{font-size:15px;margin:0 0 6px}
.warn ul{margin:0;padding-left:20px}
.toolbar{position:sticky;top:0;z-index:5;display:flex;gap:10px;align-items:center;flex-wrap:wrap;background:var(--bg);padding:10px 0 12px}
.toolbar input,.toolbar select,.toolbar button{font:inherit;color:var(--ink);background:var(--panel);border:1px solid var(--line);border-radius:7px;padding:7px 10px}
.toolbar input{min-width:280px}
.toolbar .count{color:var(--muted);margin-left:auto}
button{cursor:pointer}
.table-wrap{overflow-x:auto}
table{border-collapse:separate;border-spacing:0;width:100%;font-variant-numeric:tabular-nums}
th,td{padding:6px 8px;border-bottom:1px solid var(--line);text-align:right;white-space:nowrap}
th{background:var(--head);font-weight:600;font-size:12.5px;position:sticky;top:0}
th:first-child{border-top-left-radius:8px}th:last-child{border-top-right-radius:8px}
th.l,td.l{text-align:left}
th button{all:unset;cursor:pointer}
th button:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
th[data-sort]{padding-right:13px}
th .sort-ind{position:absolute;right:2px;top:50%;transform:translateY(-50%);font-size:9px;line-height:1}
th .sort-ind::after{content:"↕";opacity:.35}
th[aria-sort=ascending] .sort-ind::after{content:"▲";opacity:.9}
th[aria-sort=descending] .sort-ind::after{content:"▼";opacity:.9}
tbody tr:hover td{background:rgba(59,111,216,.06)}
td.rate{background:hsl(var(--h) var(--cell-s) var(--cell-l));font-weight:600}
td small{display:block;font-weight:400;color:var(--muted);font-size:11px;line-height:1.2}
td.rate{line-height:1.2;min-width:52px}
td.zero{color:var(--muted)}
td.ungraded span{display:block;font-size:12px;line-height:1.3}
td.ungraded .judge-error,td.ungraded .judge-errors,td.ungraded .error,td.ungraded .errors{color:var(--bad)}
td.judge{max-width:130px;overflow:hidden;text-overflow:ellipsis}
#paired td.l{max-width:170px;overflow:hidden;text-overflow:ellipsis}
#leaderboard{font-size:13.5px}
td.model{font-weight:600}
td.model{max-width:240px;overflow:hidden;text-overflow:ellipsis}
.dot{display:inline-block;width:10px;height:10px;border-radius:50%;margin-right:7px;vertical-align:baseline}
.badge{display:inline-block;border-radius:999px;padding:1px 8px;font-size:11.5px;font-weight:600;border:1px solid var(--line)}
.badge.warn-b{background:var(--warn-bg);border-color:var(--warn-line)}
.badge.win{color:var(--good);border-color:currentColor}
.badge.noise{color:var(--muted)}
.badge.err{color:var(--bad);border-color:currentColor}
.col-hidden{display:none}
tr.empty td{text-align:center;color:var(--muted)}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(430px,1fr));gap:14px}
figure{margin:0}
.chart{border:1px solid var(--line);border-radius:8px;padding:10px 12px}
.chart figcaption{font-weight:600;margin-bottom:4px;text-transform:capitalize}
svg{max-width:100%;height:auto;font-size:12px}
svg .label{fill:var(--ink)}svg .value{fill:var(--ink);font-variant-numeric:tabular-nums}svg .muted{fill:var(--muted)}
svg .tick{fill:var(--muted);font-size:11px}svg .grid{stroke:var(--line)}svg .axis{stroke:var(--muted)}
svg .track{fill:var(--head)}svg .whisker{stroke:var(--ink);stroke-width:1.4;opacity:.75}
svg .axis-title{fill:var(--muted);font-size:12px}
figure.scatter svg{width:100%}
svg .point circle{stroke:var(--panel);stroke-width:2}
.two{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:18px}
@media (max-width:1000px){.two{grid-template-columns:1fr}}
details.failure{border:1px solid var(--line);border-radius:8px;margin:0 0 8px;background:var(--panel)}
details.failure>summary{cursor:pointer;padding:9px 12px;display:flex;gap:8px;align-items:baseline;flex-wrap:wrap;list-style:none}
details.failure>summary::-webkit-details-marker{display:none}
details.failure>summary::before{content:"▸";color:var(--muted);width:10px}
details.failure[open]>summary::before{content:"▾"}
details.failure[open]>summary{border-bottom:1px solid var(--line)}
.chip{border-radius:6px;padding:1px 7px;font-size:12px;background:var(--head);border:1px solid var(--line)}
.chip.model{border-left:4px solid var(--c)}
.case{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px;font-weight:600}
.reason{color:var(--ink);flex:1 1 400px}
.fbody{padding:12px 14px;display:grid;gap:12px}
.fbody h3{font-size:12px;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);margin:0 0 4px}
.kv{display:flex;gap:18px;flex-wrap:wrap;color:var(--muted);font-size:12.5px}
.kv b{color:var(--ink);font-weight:600}
pre{margin:0;background:var(--code);border:1px solid var(--line);border-radius:6px;padding:9px 11px;white-space:pre-wrap;word-break:break-word;max-height:420px;overflow:auto;font:12.5px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.role{font-size:11px;font-weight:700;text-transform:uppercase;color:var(--accent);margin:6px 0 2px}
footer{color:var(--muted);font-size:12.5px;margin-top:24px}
`;

export const BOARD_JS = `
(function () {
  'use strict';
  var all = function (sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); };
  function key(td, type) {
    var v = td ? td.getAttribute('data-v') : null;
    if (v === null || v === '') return null;
    if (type === 'num') { var n = Number(v); return isNaN(n) ? null : n; }
    return v.toLowerCase();
  }
  function sortTable(table, th) {
    var index = Array.prototype.indexOf.call(th.parentNode.children, th);
    var type = th.getAttribute('data-sort');
    var now = th.getAttribute('aria-sort');
    var dir = now === 'ascending' ? 'descending' : now === 'descending' ? 'ascending' : (th.getAttribute('data-first') || 'ascending');
    all('th[aria-sort]', table).forEach(function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', dir);
    var body = table.tBodies[0];
    var rows = all('tr', body).filter(function (tr) { return !tr.classList.contains('empty'); });
    var sign = dir === 'ascending' ? 1 : -1;
    rows.sort(function (a, b) {
      var ka = key(a.children[index], type), kb = key(b.children[index], type);
      if (ka === null && kb === null) return 0;
      if (ka === null) return 1;
      if (kb === null) return -1;
      return ka < kb ? -sign : ka > kb ? sign : 0;
    });
    rows.forEach(function (tr) { body.appendChild(tr); });
    var empty = body.querySelector('tr.empty');
    if (empty) body.appendChild(empty);
  }
  all('table.sortable').forEach(function (table) {
    all('thead th[data-sort]', table).forEach(function (th) {
      var b = th.querySelector('button');
      if (b) b.addEventListener('click', function () { sortTable(table, th); });
    });
  });

  var text = document.getElementById('f-text');
  var model = document.getElementById('f-model');
  var cat = document.getElementById('f-cat');
  var count = document.getElementById('f-count');
  function apply() {
    var q = text.value.trim().toLowerCase(), m = model.value, c = cat.value;
    var shownModels = 0;
    all('#leaderboard tbody tr:not(.empty)').forEach(function (tr) {
      var show = (!m || tr.getAttribute('data-model') === m) && (!q || (tr.getAttribute('data-search') || '').indexOf(q) >= 0);
      tr.hidden = !show;
      if (show) shownModels++;
    });
    var empty = document.querySelector('#leaderboard tr.empty');
    if (empty) empty.hidden = shownModels > 0;
    all('[data-col-cat]').forEach(function (el) {
      el.classList.toggle('col-hidden', !!c && el.getAttribute('data-col-cat') !== c);
    });
    all('.chart[data-cat]').forEach(function (el) { el.hidden = !!c && el.getAttribute('data-cat') !== c && el.getAttribute('data-cat') !== '*'; });
    var shown = 0, total = 0;
    all('details.failure').forEach(function (d) {
      total++;
      var show = (!m || d.getAttribute('data-model') === m) && (!c || d.getAttribute('data-category') === c) &&
        (!q || (d.getAttribute('data-search') || '').indexOf(q) >= 0);
      d.hidden = !show;
      if (show) shown++;
    });
    all('.pair-row').forEach(function (tr) {
      tr.hidden = !!m && tr.getAttribute('data-a') !== m && tr.getAttribute('data-b') !== m;
    });
    if (count) count.textContent = shownModels + ' model' + (shownModels === 1 ? '' : 's') + ' · ' + shown + ' of ' + total + ' failures';
  }
  [text, model, cat].forEach(function (el) { if (el) { el.addEventListener('input', apply); el.addEventListener('change', apply); } });
  var expand = document.getElementById('expand-all'), collapse = document.getElementById('collapse-all');
  if (expand) expand.addEventListener('click', function () { all('details.failure:not([hidden])').forEach(function (d) { d.open = true; }); });
  if (collapse) collapse.addEventListener('click', function () { all('details.failure').forEach(function (d) { d.open = false; }); });
  if (text) apply();
})();
`;
