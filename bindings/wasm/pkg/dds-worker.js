// A DDS solver worker (started by dds.js's loadDdsModule, in a page's worker or under Node): its
// own instance of the DDS module, solving the jobs of each batch it is woken for from the
// shared memory, until its thread ends with the one that started it. (No top-level await:
// bundlers build page workers as classic scripts.)
import { instantiate, SHARED_LAYOUT } from './dds-module.js';

const inNode = typeof process !== 'undefined' && !!(process.versions && process.versions.node);

async function serve(port, { module, buffer, memory }) {
  const { CONTROL_WORDS, CONTROL } = SHARED_LAYOUT;
  const control = new Int32Array(buffer, 0, CONTROL_WORDS);
  const jobs = new Int32Array(buffer, 4 * CONTROL_WORDS);
  let dds;
  try {
    dds = await instantiate(module);
    dds.memory = memory;
  } catch (e) {
    port.postMessage(String(e && e.message ? e.message : e));
    return;
  }
  let woken = Atomics.load(control, CONTROL.wake);
  port.postMessage('ready');
  for (;;) {
    Atomics.wait(control, CONTROL.wake, woken);
    woken = Atomics.load(control, CONTROL.wake);
    dds.work(control, jobs);
  }
}

if (inNode) {
  import(/* webpackIgnore: true */ /* @vite-ignore */ 'node:worker_threads').then(({ parentPort }) => {
    parentPort.once('message', (message) => serve(parentPort, message));
  });
} else {
  self.onmessage = (event) => serve(self, event.data);
}
