// A libdealer worker for pages: runs check and generate off the main thread, with output and
// progress events while a job runs, and cancel (the worker is terminated and a fresh one
// started, so a long run stops at once).

/**
 * Starts worker.js beside this file, written out in the form bundlers (Vite, webpack 5,
 * Parcel) recognise: they then bundle the worker with the modules it imports.
 */
function startDefaultWorker() {
  return new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
}

export class DealerWorker {
  /**
   * `url`: worker.js's URL (default: beside this file), or a module that imports it (a page with
   * a service worker starts it from inside its scope, so that the worker also loads offline).
   * `loadTimeoutMs`: a worker whose scripts have not loaded by then fails its jobs (a browser
   * may end a worker whose script cannot be fetched without an error event).
   */
  constructor(url = undefined, { loadTimeoutMs = 20000 } = {}) {
    this.url = url;
    this.loadTimeoutMs = loadTimeoutMs;
    this.next = 1;
    this.pending = new Map();
    this.start();
  }

  start() {
    this.failure = null;
    this.worker = this.url === undefined ? startDefaultWorker() : new Worker(this.url, { type: 'module' });
    clearTimeout(this.loadTimer);
    this.loadTimer = setTimeout(() => {
      this.failure = new Error(`the dealer worker did not load within ${this.loadTimeoutMs / 1000} s (${this.url ?? 'worker.js'})`);
      this.failAll(this.failure);
    }, this.loadTimeoutMs);
    // A worker that cannot load (or dies) fails its jobs instead of leaving them waiting.
    this.worker.onerror = (event) => {
      event.preventDefault();
      clearTimeout(this.loadTimer);
      this.failAll(new Error(`the dealer worker failed: ${event.message || 'it could not be loaded'}`));
    };
    this.worker.onmessage = (event) => {
      const m = event.data;
      if (m.type === 'ready') {
        clearTimeout(this.loadTimer);
        return;
      }
      const job = this.pending.get(m.id);
      if (!job) return;
      if (m.type === 'output') job.onOutput?.(m.text);
      else if (m.type === 'progress') job.onProgress?.(m.text);
      else {
        this.pending.delete(m.id);
        if (m.type === 'result') job.resolve(m.result);
        else job.reject(new Error(m.message));
      }
    };
  }

  post(kind, script, options, handlers = {}) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      if (this.failure) {
        reject(this.failure);
        return;
      }
      this.pending.set(id, { resolve, reject, ...handlers });
      this.worker.postMessage({ id, kind, script, options });
    });
  }

  /** The diagnostics of `script` (see index.d.ts `check`). */
  check(script, options = {}) {
    return this.post('check', script, options);
  }

  /** Runs `script` (see index.d.ts `generate`); handlers: {onOutput(text), onProgress(text)}. */
  generate(script, options = {}, handlers = {}) {
    return this.post('generate', script, options, handlers);
  }

  /** Whether running `script` with `options` solves double dummy (see index.d.ts). */
  needsDoubleDummy(script, options = {}) {
    return this.post('needsDoubleDummy', script, options);
  }

  /** The hand types of `script` and their levelling (see index.d.ts `handTypes`). */
  handTypes(script, options = {}) {
    return this.post('handTypes', script, options);
  }

  /** Rejects every pending job with `error`. */
  failAll(error) {
    for (const job of this.pending.values()) job.reject(error);
    this.pending.clear();
  }

  /** Stops every job at once: their promises reject with an Error whose `cancelled` is true. */
  cancel() {
    this.worker.terminate();
    const e = new Error('cancelled');
    e.cancelled = true;
    this.failAll(e);
    this.start();
  }

  /** Ends the worker for good. */
  terminate() {
    clearTimeout(this.loadTimer);
    this.worker.terminate();
  }
}
