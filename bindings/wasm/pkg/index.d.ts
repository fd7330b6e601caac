/** libdealer-wasm: the libdealer core compiled to WebAssembly. */

/** One finding about a script. */
export interface Diagnostic {
  /** 1-based line (0 when the error has no position). */
  line: number;
  /** 1-based byte column (0 when unknown). */
  column: number;
  severity: 'error' | 'warning';
  /** 'dealer': libdealer refuses the script; 'bbo': how Bridge Base Online's dealer reads it. */
  source: 'dealer' | 'bbo';
  /** The message as the peers word it (`unknown variable`). */
  message: string;
  /** What libdealer can say beyond `message`, or null (`unknown function 'shpae' (did you mean
   * 'shape'?)`): the full form of the error, without its line and column. */
  explanation: string | null;
}

export type Generator = 'chacha' | 'drand48' | 'glibc';
/** The formats of board records `generate` reads ('auto': found from the first bytes). */
export type InputFormat = 'auto' | 'pbn' | 'lin' | 'oneline' | 'dl52' | 'jsonl' | 'zrd';
export type Dialect = 'classic' | 'v2';

export interface CheckOptions {
  dialect?: Dialect | '';
  /** Also check how BBO's dealer reads the script (default true). */
  bbo?: boolean;
}

export interface GenerateOptions {
  /** Seed; default: a random one (reported back in statistics.seed). */
  seed?: number | string;
  generator?: Generator;
  dialect?: Dialect;
  produce?: number;
  generate?: number;
  format?: 'text' | 'lin' | 'json' | 'pbn';
  /** Deal each hand type (`HandType_NAME` variables) directly, in exact quotas (`--level`). */
  level?: boolean;
  /** Print the deals in rounds holding each hand type (`--interleave`). */
  interleave?: boolean;
  /** How many of the produced deals to return as objects as well (default 100; at most the
   * number produced: they are dealt again by a second session with the same seed). */
  deals?: number;
  /** The script's file name, as PBN's [Event] tag names it. */
  inputName?: string;
  /** Write the core's progress meter to the diagnostics stream. */
  progress?: boolean;
  /**
   * Board records the run reads its deals from instead of dealing them (the CLI's `--input`):
   * PBN, LIN, one-line or JSON Lines text as a string, or any format's bytes (DL52 and ZRD
   * too). Each record goes through the script's condition and actions; its board number,
   * dealer, vulnerability and tags are kept in PBN, LIN and JSON output, and the double-dummy
   * tables it carries answer dds/par without solving. Without a limit every record is read.
   */
  input?: string | Uint8Array | ArrayBuffer | ArrayBufferView;
  /** The format of `input` (default 'auto'). */
  inputFormat?: InputFormat;
  /** How many of the input's double-dummy tables are checked by solving them (default 0); the
   * first that disagrees stops the run with an error. */
  verifyDd?: number;
  /** A malformed record stops the run with an error ('stop', the default) or is skipped and
   * counted ('skip'). */
  inputErrors?: 'stop' | 'skip';
  /** Other options of the C API's dealer_set_option, by key. */
  options?: Record<string, string | number>;
  /**
   * In worker-client's worker only: how many solve double dummy at once when the job loads DDS
   * (default: one per core up to 4, where the page is cross-origin isolated).
   */
  ddWorkers?: number;
}

/** The four hands of a deal in PBN suit order (spades first), e.g. "AKQ2.J54.T9.8765". */
export interface Deal { N: string; E: string; S: string; W: string }

export interface Statistics {
  generated: number;
  produced: number;
  /** The seed used, as a decimal string (null after an error). */
  seed: string | null;
  /** The one-dimensional `frequency` tables of the output (see `frequencies`). */
  frequencies: Frequency[];
  /** The two-dimensional `frequency` (and `bktfreq`) tables of the output (see
   * `frequencyTables2d`). */
  frequencies2d: Frequency2D[];
}

/** One `frequency` action's table: its title and [value, count] rows (value 'Low'/'High' for
 * the counts outside the range). */
export interface Frequency { title: string; rows: [string, number][] }

/** One row of a two-dimensional table: a value of the first expression ('Low'/'High' for the
 * deals below/above its range), its count in each column, and the printed row sum. */
export interface Frequency2DRow { label: string; counts: number[]; sum: number }

/** One two-dimensional `frequency "title" (e1, lo1, hi1, e2, lo2, hi2)` table as printed: rows
 * are values of e1, columns values of e2. */
export interface Frequency2D {
  title: string;
  /** The count columns' labels: 'Low', the values lo2..hi2 (bucket starts for `bktfreq`), 'High'. */
  columns: string[];
  /** 'Low', the values lo1..hi1, 'High', each with one count per column. */
  rows: Frequency2DRow[];
  /** The printed Sum row: one sum per column. */
  columnSums: number[];
  /** The printed grand total (the deals counted). */
  total: number;
}

export interface GenerateResult {
  ok: boolean;
  /** Exactly what the native CLI prints on standard output. */
  output: string;
  /** What it prints on standard error (warnings, the progress meter). */
  diagnostics: string;
  deals: Deal[];
  statistics: Statistics;
  /** For a script that declares hand types: how many produced deals each type had. */
  handTypes: { label: string; produced: number }[] | null;
  /** The run's JSON summary object, as `--json-summary` prints it (null after an error). */
  summary: RunSummary | null;
  error: Diagnostic | null;
}

/** A mean or share with its standard error. */
export interface Estimate { mean: number | null; se: number | null }

/** One lead of a `leads` table. */
export interface LeadRow {
  /** The cards, `D98` (cards that always give the same result). */
  cards: string;
  /** The defence's mean tricks after this lead, and its standard error. */
  tricks: number | null;
  tricks_se: number | null;
  /** The share of deals this lead beats the contract, and its standard error. */
  beaten: number | null;
  beaten_se: number | null;
}

/** A `leads(seat, strain, tricks)` action's table. */
export interface LeadTable {
  leader: string;
  declarer: string;
  contract: string;
  vulnerable: boolean;
  deals: number;
  leads: LeadRow[];
  best: string | null;
  /** IMPs per deal of the row lead against the column lead. */
  imps: Estimate[][];
  /** Matchpoints (%) of the row lead against the column lead. */
  matchpoints: Estimate[][];
}

/** Where a counted cell of a table stands, and its share with Wilson's 95 % interval. */
export interface StatisticCell {
  value?: number | 'low' | 'high';
  row?: number | 'low' | 'high';
  column?: number | 'low' | 'high';
  count: number;
  share: number | null;
  low: number;
  high: number;
}

/** An `average`, `frequency` or `bktfreq` with its 95 % interval(s). */
export interface Statistic {
  type: 'average' | 'frequency' | 'bktfreq';
  label: string | null;
  count: number;
  /** An average's mean, standard error and 95 % interval. */
  mean?: number | null;
  se?: number | null;
  low?: number | null;
  high?: number | null;
  /** A table's cells. */
  cells?: StatisticCell[];
}

/** The JSON summary object of a run. */
export interface RunSummary {
  schema: number;
  type: 'summary';
  generated: number;
  produced: number;
  seed: number;
  seconds: number;
  statistics?: Statistic[];
  leads?: LeadTable[];
  precision?: { wanted: number; widest: number | null; reached: boolean };
  dd?: { thresholds: number; exact: number; tables: number; by_the_cards: number; leads: number };
  /** A run that read its deals from board records (`input`): what the input held. */
  input?: InputSummary;
}

/** What a run's input of board records held (the summary's `input`). */
export interface InputSummary {
  /** The input's name in messages ('input data' for generate's `input`). */
  name: string;
  format: Exclude<InputFormat, 'auto'>;
  /** Records read, malformed ones included. */
  records_read: number;
  malformed_skipped: number;
  /** Records whose deal contradicts the script's predeal (passed over). */
  off_predeal_skipped: number;
  /** Double-dummy tables read from the records (used without solving). */
  dd_read: number;
  /** Tables checked by solving them (`verifyDd`). */
  dd_verified: number;
}

/** One hand type of a script and its levelling. */
export interface HandTypeShare {
  label: string;
  /** Its share of the deals the scenario produces (counted exactly or measured). */
  natural: number;
  /** Its share of the target mix. */
  target: number;
  /** The share the levelled script delivers (the target, or under a budget nearer nature). */
  mix: number;
  /** The share of its deals the levelled script keeps. */
  keep: number;
  /** Hands counted (exact) or deals seen (measured). */
  seen: number;
}

export interface HandTypesResult {
  ok: boolean;
  /** Whether the natural shares were counted exactly. */
  exact: boolean;
  /** Qualifying hands counted, or produced deals measured. */
  over: number;
  types: HandTypeShare[];
  /** The levelled script (`dealer --write-leveled`'s file). */
  text: string;
  /** What `dealer --write-leveled` prints about it. */
  summary: string;
  error: Diagnostic | null;
}

/**
 * Loads the WebAssembly module once: from `source` (its URL, a Response, its bytes or a compiled
 * module), else from gen/dealer_wasm_bg.wasm beside the package's index.js (read from disk under
 * Node, fetched in a page or a worker). A load that failed can be tried again.
 */
export function init(source?: string | URL | Response | BufferSource | WebAssembly.Module): Promise<void>;
/**
 * Loads DDS, the double-dummy solver (gen/dds.wasm), once; generate() needs it for a script that
 * uses double dummy (see needsDoubleDummy). A failed load can be tried again.
 */
export function loadDoubleDummy(
  source?: string | URL | Response | BufferSource | WebAssembly.Module,
  options?: { workers?: number },
): Promise<void>;
/** How many solve a batch of deals at once: this thread and its solver workers (0: no DDS). */
export function doubleDummyWorkers(): number;
/** Whether loadDoubleDummy() has loaded DDS. */
export function doubleDummyLoaded(): boolean;
/** Whether running the script with these options solves double dummy. */
export function needsDoubleDummy(script: string, options?: GenerateOptions): boolean;
/** Today's local date (or `date`) as PBN's [Date] writes it, YYYY.MM.DD. */
export function pbnDate(date?: Date): string;
export function version(): string;
export function check(script: string, options?: CheckOptions): Diagnostic[];
/**
 * The script language's keywords in `dialect` ('classic', else DealerV2's: 'v2' or ''), in a
 * fixed order; a word DealerV2 added is an identifier to classic dealer and left out there.
 */
export function keywords(dialect?: Dialect | ''): string[];
export function randomSeed(): number;
/** The one-dimensional frequency tables in a run's printed output. */
export function frequencies(output: string): Frequency[];
/** The two-dimensional frequency tables in a run's printed output (both dialects' formats). */
export function frequencyTables2d(output: string): Frequency2D[];
export function optionList(options?: GenerateOptions): string[];
/** The bytes of generate's `input` option (a string as UTF-8), or undefined when there is none. */
export function inputBytes(input?: GenerateOptions['input'] | null): Uint8Array | undefined;
export function generate(
  script: string,
  options?: GenerateOptions,
  onText?: (stream: 'output' | 'diagnostics', text: string) => void,
): GenerateResult;
/** A script's hand types and their levelling, as `dealer --write-leveled` works it out. */
export function handTypes(script: string, options?: GenerateOptions): HandTypesResult;
