// DDS, the double-dummy solver, compiled to a WebAssembly module of its own (gen/dds.wasm, built
// by bindings/wasm/dds/build.sh): loaded only when a script needs double dummy, one instance
// per page or worker. This file is the module's whole host: the few WASI calls its C library
// makes, and DdsModule, the calls libdealer's core makes (dds_module.rs), each copying its
// arguments into the module's memory and its results back.

/** The module file beside this one. */
const MODULE_URL = new URL('./gen/dds.wasm', import.meta.url);

/** Whether this runs under Node (which cannot fetch a file: URL). */
const inNode = typeof process !== 'undefined' && !!(process.versions && process.versions.node);

/** DDS's "large" transposition table, as the native build uses it. */
const TT_KIND_LARGE = 1;

/** Bytes of the structs the calls pass: DdsSolverConfig, DdTableDeal, DdTableResults, Deal,
 * FutureTricks, parResultsMaster, and ErrorMessage's line. */
const SIZE = { config: 12, tableDeal: 64, tableResults: 80, deal: 96, futureTricks: 216, parMaster: 208, line: 80 };

/** WASI's error numbers the host answers with. */
const ERRNO = { success: 0, badf: 8, spipe: 70 };

/** The module called exit() or abort(): the instance cannot be used again. */
export class DdsExit extends Error {}

/**
 * The WASI calls the module imports (wasi_snapshot_preview1), answered for a module that reads
 * no file, has no environment and writes only DDS's rare warnings (to `warn`).
 */
function wasiImports(memory, warn) {
  const view = () => new DataView(memory().buffer);
  const decoder = new TextDecoder();
  let pending = '';
  return {
    environ_sizes_get(count, size) {
      view().setUint32(count, 0, true);
      view().setUint32(size, 0, true);
      return ERRNO.success;
    },
    environ_get() {
      return ERRNO.success;
    },
    clock_time_get(id, _precision, out) {
      const ns = id === 0 ? BigInt(Date.now()) * 1000000n : BigInt(Math.round(performance.now() * 1e6));
      view().setBigUint64(out, ns, true);
      return ERRNO.success;
    },
    fd_write(fd, iovs, count, written) {
      if (fd !== 1 && fd !== 2) return ERRNO.badf;
      const v = view();
      let total = 0;
      for (let i = 0; i < count; i++) {
        const at = v.getUint32(iovs + 8 * i, true);
        const length = v.getUint32(iovs + 8 * i + 4, true);
        pending += decoder.decode(new Uint8Array(memory().buffer, at, length), { stream: true });
        total += length;
      }
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) warn(line);
      v.setUint32(written, total, true);
      return ERRNO.success;
    },
    fd_fdstat_get() {
      return ERRNO.badf;
    },
    fd_read(_fd, _iovs, _count, read) {
      view().setUint32(read, 0, true);
      return ERRNO.success;
    },
    fd_seek() {
      return ERRNO.spipe;
    },
    fd_close() {
      return ERRNO.success;
    },
    proc_exit(code) {
      throw new DdsExit(`the DDS module stopped (exit code ${code})`);
    },
  };
}

/**
 * A loaded DDS module: the calls libdealer's core makes, over typed arrays, each returning DDS's
 * return code (1: success). Its scratch structs are allocated once in the module's memory.
 */
export class DdsModule {
  constructor(exports) {
    this.x = exports;
    this.scratch = {};
    for (const [name, size] of Object.entries(SIZE)) {
      this.scratch[name] = this.x.malloc(name === 'parMaster' ? 2 * size : size);
      if (!this.scratch[name]) throw new Error('the DDS module could not allocate its scratch memory');
    }
  }

  /** Views of the module's memory (made again after each call: a call may grow the memory). */
  u32(at, count) {
    return new Uint32Array(this.x.memory.buffer, at, count);
  }

  i32(at, count) {
    return new Int32Array(this.x.memory.buffer, at, count);
  }

  /** A solver context with the large table from `startMb` to `maximumMb`; 0 if none. */
  contextNew(startMb, maximumMb) {
    this.i32(this.scratch.config, 3).set([TT_KIND_LARGE, startMb, maximumMb]);
    return this.x.dds_solver_context_new(this.scratch.config) >>> 0;
  }

  contextFree(context) {
    this.x.dds_solver_context_free(context);
  }

  /** dds_calc_dd_table: `cards` (16 words) in, `table` (20 words) out. */
  calcDdTable(context, cards, table) {
    const { tableDeal, tableResults } = this.scratch;
    this.u32(tableDeal, 16).set(cards);
    const code = this.x.dds_calc_dd_table(context, tableDeal, tableResults);
    table.set(this.i32(tableResults, 20));
    return code;
  }

  /** dds_solve_board with target -1, one solution, mode 1: the defenders' score out. */
  solveBoard(context, trump, first, cards, score) {
    const { deal, futureTricks } = this.scratch;
    // trump, first, currentTrickSuit[3], currentTrickRank[3]: no trick under way.
    this.i32(deal, 8).set([trump, first, 0, 0, 0, 0, 0, 0]);
    this.u32(deal + 32, 16).set(cards);
    const code = this.x.dds_solve_board(context, deal, -1, 1, 1, futureTricks);
    // FutureTricks: nodes, cards, suit[13], rank[13], equals[13], score[13].
    score[0] = this.i32(futureTricks + 8 + 3 * 13 * 4, 1)[0];
    return code;
  }

  /** SidesParBin: `table` (20 words) in, two parResultsMaster (104 words) out. */
  sidesPar(table, vulnerability, sides) {
    const { tableResults, parMaster } = this.scratch;
    this.i32(tableResults, 20).set(table);
    const code = this.x.SidesParBin(tableResults, parMaster, vulnerability);
    sides.set(this.i32(parMaster, 2 * SIZE.parMaster / 4));
    return code;
  }

  /** DealerParBin: `table` (20 words) in, one parResultsMaster (52 words) out. */
  dealerPar(table, dealer, vulnerability, result) {
    const { tableResults, parMaster } = this.scratch;
    this.i32(tableResults, 20).set(table);
    const code = this.x.DealerParBin(tableResults, parMaster, dealer, vulnerability);
    result.set(this.i32(parMaster, SIZE.parMaster / 4));
    return code;
  }

  /** DDS's text for a return code. */
  errorMessage(code) {
    const { line } = this.scratch;
    this.x.ErrorMessage(code, line);
    const bytes = new Uint8Array(this.x.memory.buffer, line, SIZE.line);
    const end = bytes.indexOf(0);
    return new TextDecoder().decode(bytes.subarray(0, end < 0 ? SIZE.line : end));
  }
}

/**
 * Loads the DDS module: from `source` (its URL, a Response, its bytes or a compiled
 * WebAssembly.Module), else gen/dds.wasm beside this file (read from disk under Node). `warn`
 * receives the lines DDS writes (default: console.warn).
 */
export async function loadDdsModule(source, { warn = console.warn } = {}) {
  if (source === undefined) {
    if (inNode && MODULE_URL.protocol === 'file:') {
      const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ 'node:fs/promises');
      source = await readFile(MODULE_URL);
    } else {
      source = MODULE_URL;
    }
  }
  let instance;
  const imports = { wasi_snapshot_preview1: wasiImports(() => instance.exports.memory, warn) };
  if (source instanceof WebAssembly.Module) {
    instance = await WebAssembly.instantiate(source, imports);
  } else {
    if (typeof source === 'string' || source instanceof URL) source = fetch(source);
    if (source instanceof Promise) source = await source;
    if (typeof Response !== 'undefined' && source instanceof Response) {
      if (!source.ok) throw new Error(`the DDS module could not be fetched: ${source.status} ${source.url}`);
      source = await source.arrayBuffer();
    }
    ({ instance } = await WebAssembly.instantiate(source, imports));
  }
  // A WASI reactor: its C++ constructors (DDS's tables) run once, first.
  instance.exports._initialize();
  return new DdsModule(instance.exports);
}
