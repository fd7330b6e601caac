// DDS, the double-dummy solver, as libdealer's package loads it: its own WebAssembly module
// (gen/dds.wasm), fetched only when a script needs it, in one instance here (dds-module.js) and,
// where this thread can wait for them, solver workers beside it (dds-worker.js) that share each
// batch of deals.
import { instantiate, SHARED_LAYOUT } from './dds-module.js';

const { CONTROL_WORDS, JOB_WORDS, JOBS_AT_ONCE } = SHARED_LAYOUT;

/** The module file beside this one. */
const MODULE_URL = new URL('./gen/dds.wasm', import.meta.url);

/** The solver worker's file, as Node starts it. */
const NODE_WORKER_FILE = './dds-worker.js';

/** Whether this runs under Node (which cannot fetch a file: URL). */
const inNode = typeof process !== 'undefined' && !!(process.versions && process.versions.node);

/**
 * Whether this thread can wait for solver workers: a SharedArrayBuffer (in a page, only when it
 * is cross-origin isolated) and Atomics.wait, which Node and Web Workers allow and a page's
 * main thread does not.
 */
function canShareWork() {
  if (typeof SharedArrayBuffer === 'undefined' || typeof Atomics === 'undefined') return false;
  if (inNode) return true;
  return !!globalThis.crossOriginIsolated && typeof WorkerGlobalScope !== 'undefined' && globalThis instanceof WorkerGlobalScope;
}

/** Starts one solver worker (dds-worker.js) on `module` with the shared memory; resolves when it is ready. */
async function startHelper(module, buffer, memory) {
  let worker;
  if (inNode) {
    const { Worker } = await import(/* webpackIgnore: true */ /* @vite-ignore */ 'node:worker_threads');
    // The worker runs a file: an --input-type of this process (node -e) would refuse it.
    const execArgv = process.execArgv.filter((a) => !a.startsWith('--input-type'));
    // (Not written as a literal `new Worker(new URL('…'))`: bundlers would take this Node thread
    // for a page's worker.)
    worker = new Worker(new URL(NODE_WORKER_FILE, import.meta.url), { execArgv });
    worker.unref();
  } else {
    worker = new Worker(new URL('./dds-worker.js', import.meta.url), { type: 'module' });
  }
  const ready = new Promise((resolve, reject) => {
    const answer = (m) => (m === 'ready' ? resolve(worker) : reject(new Error(`a DDS solver worker failed: ${m}`)));
    if (inNode) {
      worker.once('message', answer);
      worker.once('error', reject);
    } else {
      worker.onmessage = (e) => answer(e.data);
      worker.onerror = (e) => { e.preventDefault(); reject(new Error(`a DDS solver worker failed: ${e.message}`)); };
    }
  });
  worker.postMessage({ module, buffer, memory });
  return ready;
}

/**
 * Loads the DDS module: from `source` (its URL, a Response, its bytes or a compiled
 * WebAssembly.Module), else gen/dds.wasm beside this file (read from disk under Node). `warn`
 * receives the lines DDS writes (default: console.warn). `workers`: how many solve a batch of
 * deals at once, this thread included (the extra ones are solver workers with a module each,
 * started only where this thread can wait for them: Node, or a worker of a cross-origin
 * isolated page; elsewhere one).
 */
export async function loadDdsModule(source, { warn = console.warn, workers = 1 } = {}) {
  if (source === undefined) {
    if (inNode && MODULE_URL.protocol === 'file:') {
      const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ 'node:fs/promises');
      source = await readFile(MODULE_URL);
    } else {
      source = MODULE_URL;
    }
  }
  if (!(source instanceof WebAssembly.Module)) {
    if (typeof source === 'string' || source instanceof URL) source = fetch(source);
    if (source instanceof Promise) source = await source;
    if (typeof Response !== 'undefined' && source instanceof Response) {
      if (!source.ok) throw new Error(`the DDS module could not be fetched: ${source.status} ${source.url}`);
      source = await source.arrayBuffer();
    }
    source = await WebAssembly.compile(source);
  }
  const dds = await instantiate(source, warn);
  const helpers = Math.max(0, Math.min(64, Math.floor(workers) || 1) - 1);
  if (helpers > 0 && canShareWork()) {
    const buffer = new SharedArrayBuffer(4 * (CONTROL_WORDS + JOBS_AT_ONCE * JOB_WORDS));
    const started = await Promise.allSettled(Array.from({ length: helpers }, () => startHelper(source, buffer, dds.memory)));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) {
      // A page that may not start workers (or a worker that cannot load): one module solves.
      for (const s of started) if (s.status === 'fulfilled') s.value.terminate();
      warn(`libdealer: solving double dummy on one worker (${failed.reason && failed.reason.message})`);
    } else {
      dds.shared = { control: new Int32Array(buffer, 0, CONTROL_WORDS), jobs: new Int32Array(buffer, 4 * CONTROL_WORDS) };
      dds.helpers = started.map((s) => s.value);
    }
  }
  return dds;
}
