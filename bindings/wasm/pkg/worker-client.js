// A libdealer worker for pages: runs check and generate off the main thread, with output and
// progress events while a job runs, and cancel (the worker is terminated and a fresh one
// started, so a long run stops at once).
export class DealerWorker {
  /** `url`: worker.js's URL (default: beside this file). */
  constructor(url = new URL('./worker.js', import.meta.url)) {
    this.url = url;
    this.next = 1;
    this.pending = new Map();
    this.start();
  }

  start() {
    this.worker = new Worker(this.url, { type: 'module' });
    // A worker that cannot load (or dies) fails its jobs instead of leaving them waiting.
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.failAll(new Error(`the dealer worker failed: ${event.message || 'it could not be loaded'}`));
    };
    this.worker.onmessage = (event) => {
      const m = event.data;
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
    this.worker.terminate();
  }
}
