// DDS, the double-dummy solver, compiled to a WebAssembly module of its own (gen/dds.wasm, built
// by bindings/wasm/dds/build.sh): one instance of it (DdsModule) with its host, the few WASI
// calls its C library makes, and the calls libdealer's core makes (dds_module.rs), each copying
// its arguments into the module's memory and its results back; and the jobs of a batch, shared
// with solver workers (dds-worker.js) through a SharedArrayBuffer. Starting the module and its
// workers is dds.js's.

/** libdealer's return codes (src/dd): a context DDS could not allocate, and one never given out
 * or already freed. */
const NO_CONTEXT = -1002;
const UNKNOWN_CONTEXT = -1004;

/** DDS's "large" transposition table, as the native build uses it. */
const TT_KIND_LARGE = 1;

/** Bytes of the structs the calls pass: DdsSolverConfig, DdTableDeal, DdTableResults, Deal,
 * FutureTricks, parResultsMaster, and ErrorMessage's line. */
const SIZE = { config: 12, tableDeal: 64, tableResults: 80, deal: 96, futureTricks: 216, parMaster: 208, line: 80 };

/** WASI's error numbers the host answers with. */
const ERRNO = { success: 0, badf: 8, spipe: 70 };

/**
 * The shared memory of the solver workers (Int32Array words): a control block, then per job
 * JOB_WORDS words: kind (0 table, 1 board), trump, first, target (-1, or 1 to 13 for a threshold
 * question), 16 card words, then the answer's 21 words (DDS's return code, the 20 table words or
 * the score).
 * Control: [0] a counter bumped to wake the workers for a batch; [1] the batch's job count;
 * [2] the batch's number (high bits) and next job to claim (low 16 bits; 0xffff while the batch
 * is written), which no worker still busy with an older batch can claim from; [3] jobs done.
 */
const CONTROL_WORDS = 8;
/** Words describing a job before its cards: kind, trump, first, target. */
const KIND_WORDS = 4;
const JOB_WORDS = KIND_WORDS + 16 + 21;
const JOBS_AT_ONCE = 2048;
const CONTROL = { wake: 0, count: 1, claim: 2, done: 3 };

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
    /** The solver workers beside this instance (see loadDdsModule), and their shared memory. */
    this.helpers = [];
    this.shared = null;
    /** The context this instance solves jobs with, and the table memory of the contexts made. */
    this.jobContext = 0;
    this.memory = [95, 160];
    /** The contexts given out: a call with another number answers UNKNOWN_CONTEXT. */
    this.contexts = new Set();
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
    this.memory = [startMb, maximumMb];
    this.i32(this.scratch.config, 3).set([TT_KIND_LARGE, startMb, maximumMb]);
    const context = this.x.dds_solver_context_new(this.scratch.config) >>> 0;
    if (context) this.contexts.add(context);
    return context;
  }

  contextFree(context) {
    if (context === this.jobContext) this.jobContext = 0;
    if (this.contexts.delete(context)) this.x.dds_solver_context_free(context);
  }

  /** dds_calc_dd_table: `cards` (16 words) in, `table` (20 words) out. */
  calcDdTable(context, cards, table) {
    if (!this.contexts.has(context)) return UNKNOWN_CONTEXT;
    const { tableDeal, tableResults } = this.scratch;
    this.u32(tableDeal, 16).set(cards);
    const code = this.x.dds_calc_dd_table(context, tableDeal, tableResults);
    table.set(this.i32(tableResults, 20));
    return code;
  }

  /**
   * dds_solve_board with one solution, mode 1: the defenders' score out (with target -1 their
   * best; with a target of 1 to 13, the target when they reach it, less when they do not).
   */
  solveBoard(context, trump, first, cards, target, score) {
    if (!this.contexts.has(context)) return UNKNOWN_CONTEXT;
    const { deal, futureTricks } = this.scratch;
    // trump, first, currentTrickSuit[3], currentTrickRank[3]: no trick under way.
    this.i32(deal, 8).set([trump, first, 0, 0, 0, 0, 0, 0]);
    this.u32(deal + 32, 16).set(cards);
    const code = this.x.dds_solve_board(context, deal, target, 1, 1, futureTricks);
    // FutureTricks: nodes, cards, suit[13], rank[13], equals[13], score[13].
    score[0] = this.i32(futureTricks + 8 + 3 * 13 * 4, 1)[0];
    return code;
  }

  /**
   * dds_solve_board with target -1, all cards with their scores (solutions 3), mode 1: every
   * card the leader may lead with the defenders' tricks after it, in one search. `out` (53
   * words): the number of entries, then 13 words each of suits, ranks, equal cards and scores.
   */
  solveLeads(context, trump, first, cards, out) {
    if (!this.contexts.has(context)) return UNKNOWN_CONTEXT;
    const { deal, futureTricks } = this.scratch;
    this.i32(deal, 8).set([trump, first, 0, 0, 0, 0, 0, 0]);
    this.u32(deal + 32, 16).set(cards);
    const code = this.x.dds_solve_board(context, deal, -1, 3, 1, futureTricks);
    // FutureTricks: nodes, cards, suit[13], rank[13], equals[13], score[13].
    out.set(this.i32(futureTricks + 4, 1 + 4 * 13));
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

  /** How many jobs solveJobs solves at once: this instance and its solver workers. */
  parallelJobs() {
    return 1 + this.helpers.length;
  }

  /**
   * Solves one job in `words` (JOB_WORDS words, as in the shared memory) with this instance, in
   * a context it has already (one transposition table per instance) or a new one.
   */
  solveJob(words) {
    if (!this.jobContext) this.jobContext = this.contexts.values().next().value || this.contextNew(...this.memory);
    const answer = words.subarray(KIND_WORDS + 16);
    if (!this.jobContext) {
      answer[0] = NO_CONTEXT;
      return;
    }
    const cards = new Uint32Array(words.buffer, words.byteOffset + KIND_WORDS * 4, 16);
    if (words[0] === 0) {
      answer[0] = this.calcDdTable(this.jobContext, cards, answer.subarray(1));
    } else {
      answer[0] = this.solveBoard(this.jobContext, words[1], words[2], cards, words[3], answer.subarray(1, 2));
    }
  }

  /** Claims and solves jobs of the current batch until none is left (here or in a worker). */
  work(control, jobs) {
    const claim = Atomics.load(control, CONTROL.claim);
    const batch = claim >>> 16;
    for (;;) {
      const seen = Atomics.load(control, CONTROL.claim);
      const next = seen & 0xffff;
      if (seen >>> 16 !== batch || next >= Atomics.load(control, CONTROL.count)) return;
      if (Atomics.compareExchange(control, CONTROL.claim, seen, seen + 1) !== seen) continue;
      this.solveJob(jobs.subarray(next * JOB_WORDS, (next + 1) * JOB_WORDS));
      Atomics.add(control, CONTROL.done, 1);
      Atomics.notify(control, CONTROL.done);
    }
  }

  /**
   * Solves jobs (KIND_WORDS words each in `kinds`, 16 in `cards`) into `results` (21 words each), spread
   * over this instance and its solver workers. The core calls it only when parallelJobs() says
   * there are workers (with none, it solves through the context calls above).
   */
  solveJobs(kinds, cards, results) {
    const count = kinds.length / KIND_WORDS;
    const { control, jobs } = this.shared;
    for (let first = 0; first < count; first += JOBS_AT_ONCE) {
      const n = Math.min(JOBS_AT_ONCE, count - first);
      // The new batch's number, closed (next job 0xffff) while its jobs are written: a worker
      // still looking at the last batch can claim nothing from it.
      const batch = ((Atomics.load(control, CONTROL.claim) >>> 16) + 1) & 0x7fff;
      Atomics.store(control, CONTROL.claim, (batch << 16) | 0xffff);
      for (let j = 0; j < n; j++) {
        const at = j * JOB_WORDS;
        jobs.set(kinds.subarray(KIND_WORDS * (first + j), KIND_WORDS * (first + j + 1)), at);
        jobs.set(new Int32Array(cards.buffer, cards.byteOffset + 64 * (first + j), 16), at + KIND_WORDS);
      }
      Atomics.store(control, CONTROL.count, n);
      Atomics.store(control, CONTROL.done, 0);
      Atomics.store(control, CONTROL.claim, batch << 16);
      Atomics.add(control, CONTROL.wake, 1);
      Atomics.notify(control, CONTROL.wake);
      this.work(control, jobs);
      for (let done = Atomics.load(control, CONTROL.done); done < n; done = Atomics.load(control, CONTROL.done)) {
        Atomics.wait(control, CONTROL.done, done);
      }
      for (let j = 0; j < n; j++) results.set(jobs.subarray(j * JOB_WORDS + KIND_WORDS + 16, (j + 1) * JOB_WORDS), 21 * (first + j));
    }
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

/** Instantiates a compiled DDS module with its WASI host and runs its constructors. */
export async function instantiate(module, warn = console.warn) {
  let instance;
  const imports = { wasi_snapshot_preview1: wasiImports(() => instance.exports.memory, warn) };
  instance = await WebAssembly.instantiate(module, imports);
  // A WASI reactor: its C++ constructors (DDS's tables) run once, first.
  instance.exports._initialize();
  return new DdsModule(instance.exports);
}

/** The shared memory's layout, for dds.js and dds-worker.js. */
export const SHARED_LAYOUT = { CONTROL_WORDS, JOB_WORDS, JOBS_AT_ONCE, CONTROL };
