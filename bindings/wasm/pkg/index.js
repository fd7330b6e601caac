// libdealer (npm): check and generate dealer scripts with the libdealer core compiled to
// WebAssembly. The same module works in a page, in a Web Worker (see worker-client.js for a
// worker with progress and cancel) and under Node, where init() reads the .wasm file beside
// this one itself.
import initWasm, {
  initSync, check as rawCheck, generate as rawGenerate, hand_types as rawHandTypes, version as rawVersion,
  needs_double_dummy as rawNeedsDoubleDummy, keywords as rawKeywords,
} from './gen/dealer_wasm.js';
import { loadDdsModule } from './dds.js';

let ready = null;

/** The DDS module, once loadDoubleDummy() has loaded it (a promise while it loads). */
let dds = null;
let ddsLoading = null;

/** The module file beside this one. */
const MODULE_URL = new URL('./gen/dealer_wasm_bg.wasm', import.meta.url);

/** Whether this runs under Node (which cannot fetch a file: URL). */
const inNode = typeof process !== 'undefined' && !!(process.versions && process.versions.node);

/**
 * The module's bytes or where to fetch them from: `source` as given, else the file beside this
 * one (read from disk under Node, fetched elsewhere).
 */
async function moduleSource(source) {
  if (source !== undefined) return source;
  if (inNode && MODULE_URL.protocol === 'file:') {
    const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ 'node:fs/promises');
    return readFile(MODULE_URL);
  }
  return MODULE_URL;
}

/**
 * Loads the WebAssembly module once. `source`: the .wasm file's URL, a Response, its bytes or a
 * WebAssembly.Module; default: gen/dealer_wasm_bg.wasm beside this file (under Node read from
 * disk). A load that fails can be tried again: the next call starts afresh.
 */
export function init(source) {
  if (!ready) {
    if (source instanceof Uint8Array || source instanceof ArrayBuffer || source instanceof WebAssembly.Module) {
      try {
        initSync({ module: source });
        ready = Promise.resolve();
      } catch (e) {
        return Promise.reject(e);
      }
    } else {
      ready = moduleSource(source)
        .then((module) => (module instanceof Uint8Array ? initSync({ module }) : initWasm({ module_or_path: module })))
        .then(() => undefined);
      ready.catch(() => { ready = null; });
    }
  }
  return ready;
}

/**
 * Loads DDS, the double-dummy solver (gen/dds.wasm, about 120 KB gzipped), once: generate()
 * needs it for a script that uses double dummy (dds, par, trix, --pbn-dd …; see
 * needsDoubleDummy). `source`: the module's URL, a Response, its bytes or a WebAssembly.Module;
 * default: the file beside this one. `workers`: how many solve a batch of deals at once, this
 * thread included (solver workers with a module each, where this thread can wait for them:
 * Node, or a worker of a cross-origin isolated page; default 1). A load that fails can be
 * tried again.
 */
export function loadDoubleDummy(source, { workers = 1 } = {}) {
  if (dds) return Promise.resolve();
  if (!ddsLoading) {
    ddsLoading = loadDdsModule(source, { workers }).then((module) => { dds = module; });
    ddsLoading.catch(() => { ddsLoading = null; });
  }
  return ddsLoading;
}

/** Whether loadDoubleDummy() has loaded DDS. */
export function doubleDummyLoaded() {
  return dds !== null;
}

/** How many solve a batch of deals at once: this thread and its solver workers (0: no DDS). */
export function doubleDummyWorkers() {
  return dds ? dds.parallelJobs() : 0;
}

/**
 * Whether running `script` with `options` (as generate's) solves double dummy, so that
 * loadDoubleDummy() must have been awaited first (a script that does not load answers false).
 */
export function needsDoubleDummy(script, options = {}) {
  return rawNeedsDoubleDummy(String(script), optionList({ ...options, seed: options.seed ?? 1, progress: false }));
}

/** The library's version. */
export function version() {
  return rawVersion();
}

/**
 * Checks a script without dealing: libdealer's own error (at most one, the first) and, unless
 * `bbo` is false, Bridge Base Online's reading of it (classic dealer).
 * Returns [{line, column, severity: 'error'|'warning', source: 'dealer'|'bbo', message,
 * explanation}] (message: as the peers word it; explanation: what libdealer says beyond it, or
 * null).
 */
export function check(script, { dialect = '', bbo = true } = {}) {
  return JSON.parse(rawCheck(String(script), dialect || '', !!bbo));
}

/**
 * The script language's keywords in `dialect` ('classic', else DealerV2's: 'v2' or empty), in a
 * fixed order: the words an editor may mark as the language's own (a word DealerV2 added is an
 * identifier to classic dealer, so it is left out there).
 */
export function keywords(dialect = '') {
  return rawKeywords(dialect || '');
}

/** A 32-bit seed from the platform's random source (never 0). */
export function randomSeed() {
  const a = new Uint32Array(1);
  do crypto.getRandomValues(a); while (a[0] === 0);
  return a[0];
}

const FORMATS = { text: 'script', script: 'script', lin: 'lin', json: 'jsonl', jsonl: 'jsonl', pbn: 'pbn' };

/** Today's local date as PBN writes it, `YYYY.MM.DD` (the native CLI reads the same clock). */
export function pbnDate(date = new Date()) {
  const two = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}.${two(date.getMonth() + 1)}.${two(date.getDate())}`;
}

/** The formats of board records `generate` reads (its `inputFormat`; 'auto': found from the first bytes). */
const INPUT_FORMATS = ['auto', 'pbn', 'lin', 'oneline', 'dl52', 'jsonl', 'zrd'];

/**
 * The option keys and values handed to the core for `generate`'s options (not the records of
 * `input` themselves: generate hands those over as bytes, see inputBytes).
 */
export function optionList({
  seed, generator, dialect, produce, generate: gen, format, progress, inputName, level, interleave, inputFormat,
  verifyDd, inputErrors, options,
} = {}) {
  const list = [];
  const add = (k, v) => { if (v !== undefined && v !== null && v !== '') list.push(k, String(v)); };
  add('generator', generator);
  add('dialect', dialect);
  add('seed', seed === undefined || seed === null || seed === '' ? randomSeed() : seed);
  add('produce', produce);
  add('generate', gen);
  if (format !== undefined) {
    const f = FORMATS[format];
    if (!f) throw new Error(`format: expected text, lin, json or pbn, got '${format}'`);
    add('format', f);
  }
  if (progress) add('progress', '1');
  if (level) add('level', 'true');
  if (interleave) add('interleave', 'true');
  add('input_name', inputName);
  if (inputFormat !== undefined && inputFormat !== null && inputFormat !== '') {
    if (!INPUT_FORMATS.includes(inputFormat)) throw new Error(`inputFormat: expected ${INPUT_FORMATS.join(', ')}, got '${inputFormat}'`);
    add('input_format', inputFormat);
  }
  add('verify_dd', verifyDd);
  if (inputErrors !== undefined && inputErrors !== null && inputErrors !== '') {
    if (inputErrors !== 'stop' && inputErrors !== 'skip') throw new Error(`inputErrors: expected stop or skip, got '${inputErrors}'`);
    add('input_errors', inputErrors);
  }
  add('pbn_date', pbnDate());
  for (const [k, v] of Object.entries(options || {})) add(k, v);
  return list;
}

/**
 * The bytes of `generate`'s `input` option: a string as UTF-8, a Uint8Array (or another typed
 * array, a DataView, an ArrayBuffer) as is; undefined when there is none (null, undefined).
 */
export function inputBytes(input) {
  if (input === undefined || input === null) return undefined;
  if (typeof input === 'string') return new TextEncoder().encode(input);
  if (input instanceof Uint8Array) return input;
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (input instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && input instanceof SharedArrayBuffer)) {
    return new Uint8Array(input);
  }
  throw new Error(`input: expected a string or a Uint8Array of board records, got ${Object.prototype.toString.call(input)}`);
}

/**
 * Runs a script's whole job as the native CLI does with the same seed and generator. A script
 * that uses double dummy needs DDS loaded first (await loadDoubleDummy(); without it such a
 * script stops with a "not available" error).
 * options: {seed, generator: 'chacha'|'drand48'|'glibc', dialect: 'classic'|'v2', produce,
 * generate, format: 'text'|'lin'|'json'|'pbn', inputName: the script's file name for PBN's [Event], level: deal each
 * hand type directly in exact quotas (--level), interleave: print by hand type in rounds, deals: how many produced deals to return as objects
 * (default 100), progress: whether the core writes its progress meter, input: board records
 * (a string, or a Uint8Array for any format, DL52 and ZRD included) the run reads its deals
 * from instead of dealing them (--input), inputFormat: 'auto' (default: found from the first
 * bytes), 'pbn', 'lin', 'oneline', 'dl52', 'jsonl' or 'zrd', verifyDd: how many of the
 * records' double-dummy tables to check by solving (--verify-dd), inputErrors: 'stop' (default)
 * or 'skip' a malformed record, options: other dealer_set_option keys}. onText(stream, text)
 * is called as text is written ('output' or 'diagnostics').
 * Returns {ok, output, diagnostics, deals: [{N, E, S, W}], statistics: {generated, produced,
 * seed, frequencies, frequencies2d}, handTypes: null | [{label, produced}] (the hand types the
 * run delivered, for a script that declares them), summary: null | the run's JSON summary
 * object (as --json-summary prints it: statistics with 95 % intervals, leads tables, precision,
 * double-dummy solves, what an input held), error: null | {line, column, severity, source,
 * message, explanation}}.
 */
export function generate(script, options = {}, onText) {
  const list = optionList(options);
  const cb = onText ? (stream, text) => onText(stream === 0 ? 'output' : 'diagnostics', text) : undefined;
  const deals = options.deals === undefined ? 100 : Math.max(0, options.deals | 0);
  const input = inputBytes(options.input);
  const r = JSON.parse(rawGenerate(String(script), list, cb, deals, dds ?? undefined, input));
  return {
    ok: r.ok,
    output: r.output,
    diagnostics: r.diagnostics,
    deals: r.deals,
    statistics: { generated: r.generated, produced: r.produced, seed: r.seed, frequencies: frequencies(r.output),
      frequencies2d: frequencyTables2d(r.output) },
    handTypes: r.hand_types,
    summary: r.summary,
    error: r.error,
  };
}

/**
 * A script's hand types (Dealer3's `HandType_NAME` variables) and their levelling, as
 * `dealer --write-leveled` works it out: natural shares counted exactly where the condition and
 * the types read one seat, else measured (options.options.level_measure / level_timeout bound
 * it). options: as generate's (seed, generator, dialect, options: {level_target, level_budget …}).
 * Returns {ok, exact, over, types: [{label, natural, target, mix, keep, seen}], text: the
 * levelled script, summary, error}.
 */
export function handTypes(script, options = {}) {
  return JSON.parse(rawHandTypes(String(script), optionList({ ...options, format: undefined, progress: false })));
}

// A frequency table's first line: `Description: title:` (DealerV2; `bktfreq` prints no colon)
// or `Frequency title:` (classic dealer).
const HEADER = /^(?:Description|Frequency)\s*:?\s*(.*?):?\s*$/;

/**
 * The one-dimensional frequency tables of the printed output: [{title, rows: [[value, count]]}]
 * (two-dimensional tables are `frequencyTables2d`'s).
 */
export function frequencies(text) {
  const found = [];
  let current = null;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const head = line.match(HEADER);
    if (head) {
      // A 2-D table's header row (`Low v… High Sum`) would read as a row `Low v` when it has
      // one column.
      current = columnHeader(lines[i + 1]) ? null : { title: head[1], rows: [] };
      if (current) found.push(current);
      continue;
    }
    if (!current) continue;
    // `value<TAB>count` in both dialects (DealerV2 adds `<TAB>pct<TAB>cumulative pct`); 2-D
    // tables have no tabs.
    const row = line.match(/^\s*(-?\d+|Low|High)\t\s*(\d+)(?:\s|$)/);
    if (row) current.rows.push([row[1], Number(row[2])]);
    else if (/^Value/.test(line)) continue;
    else current = null;
  }
  return found.filter((f) => f.rows.length > 0);
}

/**
 * The two-dimensional frequency tables of the printed output (`frequency "title" (e1, lo1, hi1,
 * e2, lo2, hi2)` in both dialects, and DealerV2's `bktfreq` with two dimensions):
 * [{title, columns, rows: [{label, counts, sum}], columnSums, total}]. `columns` are the header's
 * labels of the count columns ('Low', the values of e2, 'High'); each row is a value of e1 (or
 * 'Low'/'High') with one count per column and the row's printed sum; `columnSums` and `total`
 * are the printed Sum row. A table whose printed shape is not complete is left out.
 */
export function frequencyTables2d(text) {
  const found = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const head = lines[i].match(HEADER);
    if (!head) continue;
    const columns = columnHeader(lines[i + 1]);
    if (!columns) continue;
    const table = { title: head[1], columns, rows: [], columnSums: null, total: null };
    let j = i + 2;
    for (; j < lines.length; j++) {
      const row = lines[j].match(/^\s*(Low|High|Sum|-?\d+)((?:\s+\d+)+)\s*$/);
      if (!row) break;
      const numbers = row[2].trim().split(/\s+/).map(Number);
      if (numbers.length !== columns.length + 1) break;
      if (row[1] === 'Sum') {
        table.columnSums = numbers.slice(0, -1);
        table.total = numbers[numbers.length - 1];
        break;
      }
      table.rows.push({ label: row[1], counts: numbers.slice(0, -1), sum: numbers[numbers.length - 1] });
    }
    if (table.total !== null && table.rows.length > 0) {
      found.push(table);
      i = j;
    }
  }
  return found;
}

// The labels of a 2-D table's count columns from its header line (`Low v… High Sum`), or null.
function columnHeader(line) {
  if (line === undefined || !/^\s+Low(?:\s+-?\d+)*\s+High\s+Sum\s*$/.test(line)) return null;
  return line.trim().split(/\s+/).slice(0, -1);
}
