// The playground page: an editor checked as you type (on this thread: a check is a parse and a
// compile, no dealing), runs in a Web Worker (Stop terminates it), hand diagrams, statistics
// and frequency charts (bars for 1-D tables, heat-map tables for 2-D ones), the statistics' 95 %
// intervals and sortable opening-lead tables (from the run's JSON summary), downloads, a link
// holding the script, seed and settings in its fragment, and input records (pasted, or a file
// dropped on the page) that a run reads its deals from instead of dealing them. State lives in
// the `playground` object (also on window for the browser test).
import { init, check, keywords, version, randomSeed, frequencies, frequencyTables2d } from '../pkg/index.js';
// The Hand types panel: a script that declares Dealer3's `HandType_NAME` variables shows each
// type's natural share (counted exactly where one seat is read, else measured) against the share
// the run delivered; "Level hand types" runs with --level (exact quotas), and the levelled
// script (--write-leveled's file) can be downloaded.
import { DealerWorker } from '../pkg/worker-client.js';
import { EXAMPLES } from './examples.js';

const $ = (id) => document.getElementById(id);
const editor = $('script');
const gutter = $('gutter');
const SUITS = [['♠', 'suit-s'], ['♥', 'suit-h'], ['♦', 'suit-d'], ['♣', 'suit-c']];
const HCP = { A: 4, K: 3, Q: 2, J: 1 };

const playground = {
  worker: null,
  running: false,
  lastResult: null,
  lastOptions: null,
  diagnostics: [],
  startedAt: 0,
  firstResultMs: null,
  loadMs: null,
  lastHandTypes: null,
  // Each lead table's sort: [column key, descending] or undefined (the summary's order).
  leadSort: [],
  // The manual's reference-index.json (see manualIndex), once fetched; null without one.
  reference: null,
  // A file given as the input records (dropped on the page or chosen): {name, bytes}, or null.
  inputFile: null,
  // The records an example put in the Input records box (another example takes them out again
  // while they are unchanged), or null.
  inputFromExample: null,
};

// Input records (the CLI's --input): a run reads its deals from board records instead of dealing
// them, each through the script. They are pasted into the Input records box, or come from a file
// dropped on the page (or chosen), kept as its bytes: DL52 and ZRD are binary, and a PBN file in
// Latin-1 keeps its bytes as they are. The last one given is the input: typing in the box drops
// a file given before, a file empties the box. The records stay out of the Link (studyLink): they
// can be megabytes, more than an address is sure to carry, and whoever opens a shared study
// should not be handed someone's boards unasked; the Link's status line says so.
function currentInput() {
  if (playground.inputFile) {
    return { data: playground.inputFile.bytes, name: playground.inputFile.name, size: playground.inputFile.bytes.length };
  }
  const text = $('input-text').value;
  if (text.trim() === '') return null;
  return { data: text, name: 'pasted records', size: new TextEncoder().encode(text).length };
}

function sizeText(bytes) {
  if (bytes < 1024) return `${bytes} bytes`;
  return bytes < 1 << 20 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / (1 << 20)).toFixed(1)} MB`;
}

const INPUT_PLACEHOLDER = '[Board "1"]\n[Dealer "N"]\n[Deal "N:AKQ2.J54.T9.8765 …"]';

// The box's summary line and placeholder say what the input is.
function updateInputUi() {
  const input = currentInput();
  $('input-state').textContent = input ? `(${input.name}, ${sizeText(input.size)}: the deals are read from it)`
    : '(none: the deals are dealt)';
  $('input-text').placeholder = playground.inputFile
    ? `The file ${playground.inputFile.name} is the input; type or paste here to read these records instead.`
    : INPUT_PLACEHOLDER;
}

// Puts `text` in the Input records box (an example's records: `fromExample`).
function setInputText(text, fromExample = false) {
  playground.inputFile = null;
  $('input-file').value = '';
  $('input-text').value = text;
  $('input-note').textContent = '';
  playground.inputFromExample = fromExample ? text : null;
  if (text) $('input-box').open = true;
  updateInputUi();
}

// A file as the input records (its bytes as they are).
async function takeInputFile(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  playground.inputFile = { name: file.name, bytes };
  playground.inputFromExample = null;
  $('input-text').value = '';
  $('input-note').textContent = '';
  $('input-box').open = true;
  updateInputUi();
  setStatus(`Input records: ${file.name} (${sizeText(bytes.length)}). Run reads its deals.`);
  document.body.dataset.input = String(Date.now());
}

// What a run read from its input (the JSON summary's `input`).
function inputCountsText(input) {
  const parts = [`${input.records_read} record${input.records_read === 1 ? '' : 's'} read (${input.format})`];
  for (const [count, what] of [[input.malformed_skipped, 'malformed, skipped'],
    [input.off_predeal_skipped, 'contradicting the predeal, skipped'],
    [input.dd_read, 'double-dummy tables read'], [input.dd_verified, 'tables verified by solving']]) {
    if (count > 0) parts.push(`${count} ${what}`);
  }
  return parts.join(', ');
}

// Whether the script declares hand types (a variable named HandType…, any case).
function declaresHandTypes(text) {
  return /^[ \t]*handtype\w*[ \t]*=/im.test(text);
}

// Shows the Hand types tab and the level checkbox only for a script with hand types.
function updateHandTypesUi() {
  const typed = declaresHandTypes(editor.value);
  $('tab-types').hidden = !typed;
  $('level-box').hidden = !typed;
  if (!typed && !$('panel-types').hidden) selectTab('output');
}

// The panel: natural against delivered share per type.
function renderHandTypes(levelled, run) {
  const box = $('types');
  if (!levelled.ok) {
    box.innerHTML = `<p class="error">${escapeHtml(said(levelled.error))}</p>`;
    return;
  }
  const produced = run && run.handTypes ? run.handTypes.reduce((n, t) => n + t.produced, 0) : 0;
  const delivered = (label) => {
    const row = run && run.handTypes ? run.handTypes.find((t) => t.label === label) : null;
    return produced ? (row ? row.produced : 0) : null;
  };
  const pct = (v) => `${(100 * v).toFixed(1)} %`;
  const how = levelled.exact ? `counted exactly over ${levelled.over.toLocaleString('en')} hands`
    : `measured over ${levelled.over.toLocaleString('en')} deals`;
  let html = `<table class="types"><caption>Natural shares ${how}; delivered: this run${$('level').checked ? ' (levelled: exact quotas)' : ''}</caption>`
    + '<thead><tr><th scope="col">Type</th><th scope="col">Natural</th><th scope="col">Target</th><th scope="col">Delivered</th><th scope="col">Deals</th></tr></thead><tbody>';
  for (const t of levelled.types) {
    const n = delivered(t.label);
    html += `<tr><th scope="row">${escapeHtml(t.label)}</th><td>${pct(t.natural)}</td><td>${pct(t.target)}</td>`
      + `<td>${n === null ? '—' : pct(n / produced)}</td><td>${n === null ? '—' : n}</td></tr>`;
  }
  html += '</tbody></table>';
  box.innerHTML = html;
}

// Works out the levelling of the script (in the worker) and fills the panel.
async function refreshHandTypes(options, run) {
  if (!declaresHandTypes(editor.value)) return;
  const levelled = await playground.worker.handTypes(editor.value, {
    ...options, options: { level_measure: 400000, level_timeout: 10 },
  });
  playground.lastHandTypes = levelled;
  renderHandTypes(levelled, run);
  document.body.dataset.handTypes = String(Date.now());
}
window.playground = playground;

function setStatus(text) {
  $('status').textContent = text;
}

// Editor: line numbers and marks.
function renderGutter() {
  const lines = editor.value.split('\n').length;
  const marks = new Map();
  // libdealer's own errors are errors; what BBO's dealer would do differently is a warning here.
  for (const d of playground.diagnostics) {
    const kind = d.source === 'bbo' ? 'warning' : d.severity;
    if (d.line > 0 && marks.get(d.line) !== 'error') marks.set(d.line, kind);
  }
  const parts = [];
  for (let i = 1; i <= lines; i++) {
    const m = marks.get(i);
    parts.push(`<div data-line="${i}"${m ? ` class="${m}" title="${m}"` : ''}>${i}</div>`);
  }
  gutter.innerHTML = parts.join('');
  gutter.scrollTop = editor.scrollTop;
}

// What a diagnostic says: libdealer's explanation when it has one (an unknown seat, a misspelled
// function with the nearest one), else the message as the peers word it.
function said(d) {
  return d.explanation || d.message;
}

// Links into the manual (`<link rel="help">` of index.html names where it is served): its
// reference-index.json, written by `make docs` (tools/reference_index.py), maps the language's
// words to their sections and lists the error headings. Fetched once, when a link is first
// wanted; when it cannot be had, the page shows no links and nothing else changes.
let manualLoading = null;
function manualIndex() {
  const help = document.querySelector('link[rel~="help"]');
  if (!manualLoading && help) {
    const base = help.href.endsWith('/') ? help.href : `${help.href}/`;
    manualLoading = fetch(`${base}reference-index.json`)
      .then((r) => (r.ok ? r.json() : null))
      .then((index) => {
        if (!index || typeof index.names !== 'object' || !Array.isArray(index.errors)) return;
        playground.reference = { base, names: index.names, errors: index.errors };
        renderProblems();
        renderWordHelp();
      })
      .catch(() => {});
  }
  return playground.reference;
}

// A link into the manual (`href` relative to the book), opened in a new tab.
function manualLink(href, label) {
  const a = document.createElement('a');
  a.href = new URL(href, playground.reference.base).href;
  a.target = '_blank';
  a.rel = 'noopener';
  a.setAttribute('aria-label', `${label} (opens in a new tab)`);
  return a;
}

// The errors entry of the manual for a diagnostic: the heading whose text is the longest one
// found in its message (any case), else the errors page itself.
function errorReference(message) {
  const text = String(message).toLowerCase();
  let best = null;
  for (const e of playground.reference.errors) {
    if (text.includes(e.text.toLowerCase()) && (!best || e.text.length > best.text.length)) best = e;
  }
  return best || { text: 'errors and limits', href: 'reference/errors.html' };
}

function renderProblems() {
  const list = $('problems');
  list.innerHTML = '';
  const reference = playground.diagnostics.length ? manualIndex() : null;
  for (const d of playground.diagnostics) {
    const li = document.createElement('li');
    li.className = d.source === 'bbo' ? 'warning' : d.severity;
    const b = document.createElement('button');
    const where = d.line ? `line ${d.line}${d.column ? `, column ${d.column}` : ''}: ` : '';
    const who = d.source === 'bbo' ? (d.severity === 'error' ? 'BBO rejects, ' : 'BBO, ') : '';
    b.textContent = `${d.source !== 'bbo' && d.severity === 'error' ? '✖' : '⚠'} ${who}${where}${said(d)}`;
    b.addEventListener('click', () => goTo(d.line, d.column));
    li.append(b);
    if (reference) {
      const entry = errorReference(d.message);
      const a = manualLink(entry.href, `reference: ${entry.text}`);
      a.className = 'reference';
      a.textContent = 'reference';
      li.append(' ', a);
    }
    list.append(li);
  }
}

// The keywords of each dialect (from the core), asked once per dialect.
const keywordSets = new Map();
function isKeyword(word, dialect) {
  if (!keywordSets.has(dialect)) keywordSets.set(dialect, new Set(keywords(dialect)));
  return keywordSets.get(dialect).has(word);
}

// The word the editor's caret is on or beside ('' when none).
function wordAtCaret() {
  const text = editor.value;
  const at = editor.selectionStart;
  let start = at;
  let end = at;
  while (start > 0 && /\w/.test(text[start - 1])) start--;
  while (end < text.length && /\w/.test(text[end])) end++;
  return text.slice(start, end);
}

// The line under the editor: "hcp — reference", a link to the manual's section on the keyword
// the caret is on (a keyword of the current dialect that the reference describes); empty else.
let shownWord = null;
function renderWordHelp() {
  if (playground.loadMs === null) return; // the module is not loaded yet
  const line = $('word-help');
  const word = wordAtCaret();
  const keyword = word !== '' && isKeyword(word, $('dialect').value || dialectOfGenerator());
  const reference = keyword ? manualIndex() : null;
  const href = reference && Object.hasOwn(reference.names, word.toLowerCase()) ? reference.names[word.toLowerCase()] : null;
  const key = href ? `${word} ${href}` : '';
  if (key === shownWord) return;
  shownWord = key;
  line.textContent = '';
  if (!href) return;
  const a = manualLink(href, `${word}: reference`);
  const code = document.createElement('code');
  code.textContent = word;
  a.append(code, ' — reference');
  line.append(a);
}

function goTo(line, column) {
  if (!line) return;
  const lines = editor.value.split('\n');
  let pos = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) pos += lines[i].length + 1;
  pos += Math.max(0, (column || 1) - 1);
  editor.focus();
  editor.setSelectionRange(pos, pos);
}

let checkTimer = 0;
function scheduleCheck() {
  renderGutter();
  renderWordHelp();
  clearTimeout(checkTimer);
  checkTimer = setTimeout(runCheck, 120);
}

function runCheck() {
  try {
    playground.diagnostics = check(editor.value, { dialect: $('dialect').value || dialectOfGenerator(), bbo: $('bbo').checked });
  } catch (e) {
    playground.diagnostics = [{ line: 0, column: 0, severity: 'error', source: 'dealer', message: String(e) }];
  }
  renderGutter();
  renderProblems();
  document.body.dataset.checked = String(Date.now());
}

function dialectOfGenerator() {
  return $('generator').value === 'glibc' ? 'classic' : 'v2';
}

// Results.
function handHtml(seatName, pbn) {
  const suits = pbn.split('.');
  let hcp = 0;
  for (const c of pbn) hcp += HCP[c] || 0;
  const rows = SUITS.map(([sym, cls], i) => `<span class="${cls}">${sym} ${suits[i] ? suits[i].replaceAll('T', '10') : '—'}</span>`);
  return `<div class="hand"><b>${seatName} · ${hcp} HCP</b>${rows.join('')}</div>`;
}

function renderDeals(deals) {
  const box = $('deals');
  box.innerHTML = deals.length ? '' : '<p>No deals.</p>';
  deals.forEach((d, i) => {
    const el = document.createElement('div');
    el.className = 'deal';
    el.setAttribute('role', 'group');
    el.setAttribute('aria-label', `Deal ${i + 1}`);
    el.innerHTML = `<div class="n">${handHtml('North', d.N)}</div><div class="w">${handHtml('West', d.W)}</div>`
      + `<div class="c">#${i + 1}</div><div class="e">${handHtml('East', d.E)}</div><div class="s">${handHtml('South', d.S)}</div>`;
    box.append(el);
  });
}

function renderStats(result, timing) {
  const s = result.statistics;
  const rows = [
    ['Generated', s.generated], ['Produced', s.produced], ['Seed', s.seed ?? '—'],
    ['Time in the worker', timing ? `${(timing.ms / 1000).toFixed(3)} s` : '—'],
    ['Deals per second', timing && timing.ms > 0 ? Math.round(s.generated / (timing.ms / 1000)).toLocaleString('en') : '—'],
  ];
  if (result.summary && result.summary.input) rows.splice(2, 0, ['Input records', escapeHtml(inputCountsText(result.summary.input))]);
  let html = `<table><tbody>${rows.map(([k, v]) => `<tr><th scope="row">${k}</th><td>${v}</td></tr>`).join('')}</tbody></table>`;
  for (const f of frequencies(result.output)) {
    const max = Math.max(1, ...f.rows.map((r) => r[1]));
    html += `<h3>${escapeHtml(f.title)}</h3><div class="bars" role="img" aria-label="Frequency of ${escapeHtml(f.title)}">`;
    html += f.rows.map(([v, n]) => `<div class="bar"><span>${v}</span><i style="width:${(100 * n / max).toFixed(1)}%"></i><span>${n}</span></div>`).join('');
    html += '</div>';
  }
  for (const t of frequencyTables2d(result.output)) html += heatMapHtml(t);
  const summary = result.summary || {};
  html += intervalsHtml(summary.statistics || []);
  (summary.leads || []).forEach((table, i) => { html += leadTableHtml(table, i); });
  $('stats').innerHTML = html;
}

// A number for a table cell, or — when it is not known (null).
function shown(value, digits, scale = 1) {
  return value === null || value === undefined ? '—' : (scale * value).toFixed(digits);
}

// How sure the statistics are: each average with its 95 % interval, each counted cell of a
// table with its share and Wilson's 95 % interval (the JSON summary's `statistics`).
function intervalsHtml(statistics) {
  if (statistics.length === 0) return '';
  let html = '<div class="table-wrap" role="region" tabindex="0" aria-label="95 % intervals (scrolls sideways)">'
    + '<table class="intervals"><caption>How sure: 95 % intervals</caption><thead><tr>'
    + '<th scope="col">statistic</th><th scope="col">value</th><th scope="col">estimate</th>'
    + '<th scope="col">95 % interval</th></tr></thead><tbody>';
  for (const s of statistics) {
    const name = escapeHtml(s.label || s.type);
    if (s.type === 'average') {
      html += `<tr><th scope="row">${name}</th><td>mean</td><td>${shown(s.mean, 3)} ± ${shown(s.se, 3)}</td>`
        + `<td>${shown(s.low, 3)} to ${shown(s.high, 3)}</td></tr>`;
      continue;
    }
    for (const c of s.cells.filter((cell) => cell.count > 0)) {
      const at = 'value' in c ? String(c.value) : `${c.row} × ${c.column}`;
      html += `<tr><th scope="row">${name}</th><td>${escapeHtml(at)}</td><td>${shown(c.share, 1, 100)} %</td>`
        + `<td>${shown(c.low, 1, 100)} to ${shown(c.high, 1, 100)} %</td></tr>`;
    }
  }
  return html + '</tbody></table></div>';
}

// The columns of a lead table: the key of each row's value, its heading, how it is shown.
const LEAD_COLUMNS = [
  ['cards', 'lead', (r) => escapeHtml(r.cards)],
  ['tricks', 'defence tricks', (r) => `${shown(r.tricks, 2)} ± ${shown(r.tricks_se, 2)}`],
  ['beaten', 'beaten', (r) => `${shown(r.beaten, 1, 100)} ± ${shown(r.beaten_se, 1, 100)} %`],
];

// A `leads` action's table (the JSON summary's `leads`), sortable by each column: click a
// heading (again: the other way round). `rows` keeps the summary's order unless sorted.
function leadTableHtml(table, index, sort = null) {
  const rows = table.leads.map((r, i) => ({ ...r, order: i }));
  if (sort) {
    const [key, down] = sort;
    rows.sort((a, b) => {
      const x = a[key] ?? -Infinity;
      const y = b[key] ?? -Infinity;
      const order = typeof x === 'string' ? a.order - b.order : x - y;
      return down ? -order : order;
    });
  }
  const seat = (name) => name.charAt(0).toUpperCase() + name.slice(1);
  const caption = `Opening leads by ${seat(table.leader)} against ${table.contract} by ${seat(table.declarer)}`
    + ` (${table.vulnerable ? '' : 'not '}vulnerable), ${table.deals} deals; best lead ${table.best ?? '—'}`;
  let html = `<div class="table-wrap" data-lead-table="${index}"><table class="leads"><caption>${escapeHtml(caption)}</caption><thead><tr>`;
  for (const [key, heading] of LEAD_COLUMNS) {
    const state = sort && sort[0] === key ? (sort[1] ? 'descending' : 'ascending') : 'none';
    html += `<th scope="col" aria-sort="${state}"><button type="button" data-sort="${key}">${heading}</button></th>`;
  }
  html += '</tr></thead><tbody>';
  for (const r of rows) {
    const best = r.cards === table.best ? ' class="best"' : '';
    html += `<tr${best}>${LEAD_COLUMNS.map(([key, , cell], i) => (i === 0 ? `<th scope="row">${cell(r)}</th>` : `<td data-key="${key}">${cell(r)}</td>`)).join('')}</tr>`;
  }
  return html + '</tbody></table></div>';
}

// Sorting a lead table: a click on a heading's button sorts by that column (a second click on the
// same column turns the order round; numbers start from the largest).
function sortLeadTable(event) {
  const button = event.target.closest('button[data-sort]');
  const wrap = button && button.closest('[data-lead-table]');
  if (!wrap || !playground.lastResult || !playground.lastResult.summary) return;
  const index = Number(wrap.dataset.leadTable);
  const key = button.dataset.sort;
  const before = playground.leadSort[index];
  const down = before && before[0] === key ? !before[1] : key !== 'cards';
  playground.leadSort[index] = [key, down];
  const html = leadTableHtml(playground.lastResult.summary.leads[index], index, playground.leadSort[index]);
  wrap.outerHTML = html;
}

// The link to this study: the script, seed and settings in the URL's fragment (never sent to a
// server), which the page reads when it opens.
function studyLink() {
  const r = playground.lastResult;
  const seed = $('seed').value.trim() || (r && r.statistics.seed) || '';
  const params = new URLSearchParams({ script: editor.value, seed, generator: $('generator').value,
    dialect: $('dialect').value, produce: $('produce').value.trim(), format: $('format').value });
  return `${location.origin}${location.pathname}#${params}`;
}

// Fills the editor and settings from a link's fragment; false when it holds no script.
function openLink() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (!params.has('script')) return false;
  editor.value = params.get('script');
  for (const id of ['seed', 'generator', 'dialect', 'produce', 'format']) {
    if (params.has(id)) $(id).value = params.get(id);
  }
  playground.inputName = undefined;
  playground.lastHandTypes = null;
  updateHandTypesUi();
  scheduleCheck();
  return true;
}

// A 2-D frequency table as an HTML table whose count cells are shaded by count (the Sum row and
// column are not). Light cells keep dark text and dark cells take white text: the shade jumps
// between the two ranges so that both stay readable.
function heatMapHtml(t) {
  const max = Math.max(1, ...t.rows.flatMap((r) => r.counts));
  const title = escapeHtml(t.title || 'Frequency');
  const cell = (n) => {
    const h = n / max;
    const alpha = h <= 0.6 ? 0.55 * h / 0.6 : 0.85 + 0.15 * (h - 0.6) / 0.4;
    const cls = n === 0 ? 'cell zero' : h > 0.6 ? 'cell hot' : 'cell';
    return `<td class="${cls}" style="--a:${alpha.toFixed(3)}">${n}</td>`;
  };
  let html = `<div class="heat-wrap" role="region" tabindex="0" aria-label="${title} (scrolls sideways)">`
    + `<table class="heat"><caption>${title}</caption><thead><tr><td class="corner"></td>`
    + t.columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('')
    + '<th scope="col" class="sum">Sum</th></tr></thead><tbody>';
  for (const r of t.rows) {
    html += `<tr><th scope="row">${escapeHtml(r.label)}</th>${r.counts.map(cell).join('')}<td class="sum">${r.sum}</td></tr>`;
  }
  html += '</tbody><tfoot><tr><th scope="row" class="sum">Sum</th>'
    + t.columnSums.map((n) => `<td class="sum">${n}</td>`).join('')
    + `<td class="sum">${t.total}</td></tr></tfoot></table></div>`;
  return html;
}

function escapeHtml(t) {
  return t.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
}

function runOptions(overrides = {}) {
  const seedText = $('seed').value.trim();
  const input = currentInput();
  return {
    seed: seedText === '' ? randomSeed() : seedText,
    generator: $('generator').value,
    dialect: $('dialect').value || undefined,
    produce: $('produce').value.trim() || undefined,
    format: $('format').value,
    inputName: playground.inputName,
    level: declaresHandTypes(editor.value) && $('level').checked,
    progress: true,
    deals: 200,
    ...(input ? { input: input.data, inputFormat: $('input-format').value, inputErrors: $('input-skip').checked ? 'skip' : 'stop' } : {}),
    ...overrides,
  };
}

async function run() {
  if (playground.running) return;
  const options = runOptions();
  playground.lastOptions = options;
  playground.running = true;
  $('run').disabled = true;
  $('stop').disabled = false;
  $('output').textContent = '';
  document.body.dataset.state = 'running';
  setStatus(`Running (seed ${options.seed})…`);
  const started = performance.now();
  let shown = '';
  try {
    const result = await playground.worker.generate(editor.value, options, {
      onOutput: (text) => {
        if (playground.firstResultMs === null) playground.firstResultMs = performance.now() - playground.pageStart;
        shown += text;
        if (shown.length < 2_000_000) $('output').textContent = shown;
      },
      // The core's progress meter (`Calculating... N% complete`, by deals produced).
      onProgress: (text) => {
        const meter = text.match(/(\d+)% complete/g);
        if (meter) setStatus(`Running (seed ${options.seed})… ${meter[meter.length - 1]}`);
      },
    });
    playground.lastResult = result;
    playground.leadSort = [];
    const notes = result.diagnostics.replace(/Calculating\.\.\. *\d+% complete\r/g, '').replace(/ {38}\r/g, '');
    $('output').textContent = result.output + (notes ? `\n${notes}` : '')
      + (result.error ? `\nError: ${result.error.line ? `line ${result.error.line}: ` : ''}${said(result.error)}\n` : '');
    renderDeals(result.deals);
    renderStats(result, result.timing);
    const read = result.summary && result.summary.input;
    $('input-note').textContent = read ? `Last run: ${inputCountsText(read)}; ${result.statistics.produced} produced.` : '';
    if (result.ok) await refreshHandTypes({ ...options, seed: result.statistics.seed }, result);
    if (result.error && result.error.line) {
      playground.diagnostics = [result.error];
      renderGutter();
      renderProblems();
    }
    const secs = ((performance.now() - started) / 1000).toFixed(2);
    setStatus(result.ok ? (read ? `Done: ${result.statistics.produced} of ${read.records_read} input records in ${secs} s.`
      : `Done: ${result.statistics.produced} of ${result.statistics.generated} deals in ${secs} s (seed ${result.statistics.seed}).`)
      : `Stopped by an error: ${said(result.error)}`);
    document.body.dataset.state = result.ok ? 'done' : 'failed';
  } catch (e) {
    if (e.cancelled) {
      setStatus('Stopped.');
      document.body.dataset.state = 'stopped';
    } else {
      setStatus(`Failed: ${e.message}`);
      document.body.dataset.state = 'failed';
    }
  } finally {
    playground.running = false;
    $('run').disabled = false;
    $('stop').disabled = true;
  }
}

function stop() {
  if (!playground.running) return;
  playground.worker.cancel();
}

// Downloads: the output as shown; PBN (with the double-dummy tags when the script solves double
// dummy), LIN and JSON Lines by the core (the same seed deals the same deals again).
function save(name, text, type = 'text/plain') {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

async function downloadAs(format) {
  const r = playground.lastResult;
  if (!r || !playground.lastOptions) {
    setStatus('Run a script first.');
    return;
  }
  if (format === 'text') return save('dealer-output.txt', r.output);
  const options = { ...playground.lastOptions, seed: r.statistics.seed, format, deals: 0 };
  // PBN records of a script that solves double dummy carry its table and par (--pbn-dd).
  if (format === 'pbn' && await playground.worker.needsDoubleDummy(editor.value, playground.lastOptions)) {
    options.options = { ...(options.options || {}), pbn_dd: 'true' };
  }
  const again = await playground.worker.generate(editor.value, options);
  save({ pbn: 'dealer-deals.pbn', lin: 'dealer-deals.lin', json: 'dealer-deals.jsonl' }[format], again.output);
}

// Tabs (arrow keys move between them).
const tabs = ['output', 'deals', 'stats', 'types'];
function selectTab(name, focus) {
  for (const t of tabs) {
    const on = t === name;
    $(`tab-${t}`).setAttribute('aria-selected', String(on));
    $(`tab-${t}`).tabIndex = on ? 0 : -1;
    $(`panel-${t}`).hidden = !on;
  }
  if (focus) $(`tab-${name}`).focus();
}

function loadExample(i) {
  const ex = EXAMPLES[i];
  editor.value = ex.script;
  // An example with records fills the Input records box; another one empties it while it
  // holds an example's records unchanged (records the user gave stay).
  if (ex.input !== undefined) setInputText(ex.input, true);
  else if (playground.inputFromExample !== null && !playground.inputFile && $('input-text').value === playground.inputFromExample) setInputText('');
  $('generator').value = ex.generator;
  $('dialect').value = ex.dialect;
  $('seed').value = ex.seed;
  playground.inputName = undefined;
  playground.lastHandTypes = null;
  updateHandTypesUi();
  scheduleCheck();
}

async function main() {
  playground.pageStart = performance.timeOrigin ? 0 : performance.now();
  const select = $('example');
  EXAMPLES.forEach((ex, i) => select.add(new Option(ex.title, String(i))));
  select.addEventListener('change', () => loadExample(Number(select.value)));
  editor.addEventListener('input', scheduleCheck);
  editor.addEventListener('scroll', () => { gutter.scrollTop = editor.scrollTop; });
  // The caret moved (keys, clicks, selection): the keyword line follows it.
  document.addEventListener('selectionchange', () => { if (document.activeElement === editor) renderWordHelp(); });
  editor.addEventListener('keyup', renderWordHelp);
  editor.addEventListener('click', renderWordHelp);
  editor.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); run(); }
  });
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape') stop(); });
  $('generator').addEventListener('change', scheduleCheck);
  $('dialect').addEventListener('change', scheduleCheck);
  $('bbo').addEventListener('change', scheduleCheck);
  $('run').addEventListener('click', run);
  $('stop').addEventListener('click', stop);
  $('stats').addEventListener('click', sortLeadTable);
  $('link').addEventListener('click', async () => {
    const link = studyLink();
    history.replaceState(null, '', link);
    // The input records are not in the link (see currentInput).
    const without = currentInput() ? ' Not the input records: whoever opens it pastes or drops them again.' : '';
    try {
      await navigator.clipboard.writeText(link);
      setStatus(`Link copied: it holds the script, seed and settings (in the #fragment, never sent to a server).${without}`);
    } catch {
      setStatus(`The address bar holds the link: the script, seed and settings in its #fragment.${without}`);
    }
  });
  window.addEventListener('hashchange', () => { if (openLink()) runCheck(); });
  for (const f of ['text', 'pbn', 'lin', 'json']) $(`dl-${f}`).addEventListener('click', () => downloadAs(f));
  const shownTabs = () => tabs.filter((t) => !$(`tab-${t}`).hidden);
  tabs.forEach((t) => {
    $(`tab-${t}`).addEventListener('click', () => selectTab(t));
    $(`tab-${t}`).addEventListener('keydown', (e) => {
      const shown = shownTabs();
      const i = shown.indexOf(t);
      if (e.key === 'ArrowRight') selectTab(shown[(i + 1) % shown.length], true);
      if (e.key === 'ArrowLeft') selectTab(shown[(i + shown.length - 1) % shown.length], true);
    });
  });
  editor.addEventListener('input', updateHandTypesUi);
  // Input records: typed or pasted text (it replaces a file given before), a chosen file, or a
  // file dropped anywhere on the page (text dropped on a text box stays the browser's).
  $('input-text').addEventListener('input', () => {
    if ($('input-text').value !== '' && playground.inputFile) {
      playground.inputFile = null;
      $('input-file').value = '';
    }
    playground.inputFromExample = null;
    updateInputUi();
  });
  const fileFailed = (file) => (e) => setStatus(`Cannot read ${file.name}: ${e.message}`);
  $('input-file').addEventListener('change', () => {
    const file = $('input-file').files[0];
    if (file) takeInputFile(file).catch(fileFailed(file));
  });
  $('input-clear').addEventListener('click', () => setInputText(''));
  const carriesFiles = (e) => e.dataTransfer && [...e.dataTransfer.types].includes('Files');
  document.addEventListener('dragover', (e) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    document.body.classList.add('dropping');
  });
  document.addEventListener('dragleave', (e) => { if (!e.relatedTarget) document.body.classList.remove('dropping'); });
  document.addEventListener('drop', (e) => {
    document.body.classList.remove('dropping');
    if (!carriesFiles(e)) return;
    e.preventDefault();
    const file = e.dataTransfer.files[0];
    if (file) takeInputFile(file).catch(fileFailed(file));
  });
  updateInputUi();
  $('dl-leveled').addEventListener('click', async () => {
    if (!playground.lastHandTypes) await refreshHandTypes(runOptions(), playground.lastResult);
    const l = playground.lastHandTypes;
    if (l && l.ok) save('scenario.leveled.dlr', l.text);
    else setStatus(`Cannot level: ${l ? said(l.error) : 'no hand types'}`);
  });
  await init();
  playground.worker = new DealerWorker(new URL('dealer-worker.js', import.meta.url));
  playground.loadMs = performance.now();
  $('version').textContent = `libdealer ${version()}`;
  if (!openLink()) loadExample(0);
  runCheck();
  setStatus(`Ready (loaded in ${Math.round(playground.loadMs)} ms). Ctrl+Enter runs, Escape stops.`);
  document.body.dataset.ready = 'true';
  // Offline once loaded: the service worker keeps a copy of every file the page fetched.
  if ('serviceWorker' in navigator && location.protocol.startsWith('http')) {
    navigator.serviceWorker.register('sw.js').catch(() => {});
  }
}

main().catch((e) => setStatus(`Could not load: ${e.message}`));
