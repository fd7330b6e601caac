// The Web Worker side of worker-client.js: loads the module, then answers
// {id, kind: 'check' | 'generate' | 'handTypes' | 'needsDoubleDummy', script, options} messages
// (DDS's module is loaded before a generate that solves double dummy). While a job runs it posts
// {id, type: 'output' | 'progress', text}; at the end {id, type: 'result', result} or
// {id, type: 'error', message}. Cancel is the client's: it terminates this worker.
import {
  init, check, generate, handTypes, loadDoubleDummy, needsDoubleDummy, doubleDummyWorkers,
} from './index.js';

/**
 * Solver workers for double dummy: one per core up to 4 (each holds a DDS module and its
 * transposition table), where the page is cross-origin isolated; one elsewhere.
 */
const SOLVERS = Math.max(1, Math.min(4, (self.navigator && self.navigator.hardwareConcurrency) || 1));

const loaded = init();
self.onmessage = async (event) => {
  const { id, kind, script, options } = event.data;
  try {
    await loaded;
    if (kind === 'check') {
      self.postMessage({ id, type: 'result', result: check(script, options) });
      return;
    }
    if (kind === 'needsDoubleDummy') {
      self.postMessage({ id, type: 'result', result: needsDoubleDummy(script, options) });
      return;
    }
    if (kind === 'handTypes') {
      self.postMessage({ id, type: 'result', result: handTypes(script, options) });
      return;
    }
    const started = performance.now();
    // DDS is fetched only for a job that solves double dummy.
    if (needsDoubleDummy(script, options)) await loadDoubleDummy(undefined, { workers: options.ddWorkers ?? SOLVERS });
    let first = null;
    const result = generate(script, options, (stream, text) => {
      if (stream === 'output' && first === null) first = performance.now() - started;
      self.postMessage({ id, type: stream === 'output' ? 'output' : 'progress', text });
    });
    result.timing = { ms: performance.now() - started, firstOutputMs: first };
    result.doubleDummyWorkers = doubleDummyWorkers();
    self.postMessage({ id, type: 'result', result });
  } catch (e) {
    self.postMessage({ id, type: 'error', message: String(e && e.message ? e.message : e) });
  }
};
self.postMessage({ type: 'ready' });
