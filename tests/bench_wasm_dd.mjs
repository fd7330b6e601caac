// `make wasm-bench`: full double-dummy tables per second, the WebAssembly build (DDS's own
// module) in Node and in headless Chromium against the native library, on the same deals:
// a script that prints each deal's 20 results (`printrpt(trix(deal))`), dealt with the same
// seed everywhere. Native: the CLI with -R 1 and -R <cores>; WebAssembly: one DDS module, then
// one per core (solver workers sharing the batches: generate() in Node, the playground's worker
// in Chromium on a cross-origin isolated page). Prints one row per setting with tables per
// second and the ratio to native on one thread, whether every setting printed the same tables,
// and the targets of issue 36 (one worker >= 0.5x native one thread; N workers >= 0.8·N x one).
//   node tests/bench_wasm_dd.mjs [deals=40] [seed=2026]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { top } from '../bindings/wasm/tests/cases.mjs';
import { serve } from './static_server.mjs';

const deals = Number(process.argv[2] || 40);
const seed = Number(process.argv[3] || 2026);
const cores = availableParallelism();
const script = `produce ${deals}\naction printrpt(deal, trix(deal))\n`;
const work = mkdtempSync(join(tmpdir(), 'dealer-wasm-bench-'));
const scriptFile = join(work, 'tables.dlr');
writeFileSync(scriptFile, script);

/** The output without the lines that differ by nature (the time taken). */
const tables = (text) => text.split('\n').filter((l) => l && !l.startsWith('Time needed')).join('\n');

const rows = [];
function row(setting, seconds, output) {
  rows.push({ setting, seconds, rate: deals / seconds, output: tables(output) });
}

// Native: the CLI on one thread and on every core.
for (const threads of [...new Set([1, cores])]) {
  const t = process.hrtime.bigint();
  const out = execFileSync(join(top, 'target/release/dealer'), ['-s', String(seed), '-R', String(threads), '-v', scriptFile], {
    encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'],
  });
  row(`native, ${threads} thread${threads > 1 ? 's' : ''}`, Number(process.hrtime.bigint() - t) / 1e9, out);
}

// Node: a fresh process per worker count (DDS is loaded once per process), the module loaded
// and compiled before the clock starts.
const nodeProgram = `
  import { init, generate, loadDoubleDummy } from ${JSON.stringify(join(top, 'bindings/wasm/pkg/index.js'))};
  await init();
  await loadDoubleDummy(undefined, { workers: Number(process.argv[1]) });
  const t = process.hrtime.bigint();
  const r = generate(${JSON.stringify(script)}, { seed: ${seed}, deals: 0, options: { statistics: 'false' } });
  process.stdout.write(JSON.stringify({ seconds: Number(process.hrtime.bigint() - t) / 1e9, output: r.error ? 'error: ' + r.error.message : r.output }));
`;
for (const workers of [...new Set([1, cores])]) {
  const got = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', nodeProgram, String(workers)], { encoding: 'utf8', maxBuffer: 1 << 26 }));
  row(`WebAssembly in Node, ${workers} worker${workers > 1 ? 's' : ''}`, got.seconds, got.output);
}

// Chromium: the playground's worker (DDS loaded by a first, small DD job before the clock starts).
const chrome = process.env.CHROMIUM || '/usr/bin/chromium';
const { chromium } = createRequire(join(top, 'bindings/wasm/package.json'))('playwright-core');
let server;
const profile = mkdtempSync(join(tmpdir(), 'dealer-bench-chromium-'));
let browser;
try {
  // Cross-origin isolated (tests/static_server.mjs): the page's worker may wait for solver workers.
  const served = await serve(join(top, 'bindings/wasm'), 'www/');
  server = served.server;
  browser = await chromium.launchPersistentContext(profile, { executablePath: chrome, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage();
  await page.goto(`${served.url}www/`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  for (const workers of [...new Set([1, Math.min(4, cores)])]) {
    const got = await page.evaluate(async ({ script, seed, workers }) => {
      // A fresh worker, whose first double-dummy job loads DDS with `workers` solver workers.
      window.playground.worker.cancel();
      const w = window.playground.worker;
      await w.generate('produce 1\naction printrpt(trix(deal))\n', { seed: 1, deals: 0, ddWorkers: workers });
      const t = performance.now();
      const r = await w.generate(script, { seed, deals: 0, options: { statistics: 'false' } });
      return {
        seconds: (performance.now() - t) / 1000, output: r.error ? `error: ${r.error.message}` : r.output,
        workers: r.doubleDummyWorkers,
      };
    }, { script, seed, workers });
    row(`WebAssembly in Chromium, ${got.workers} worker${got.workers > 1 ? 's' : ''}`, got.seconds, got.output);
  }
} catch (e) {
  console.log(`Chromium: NOT RUN (${e.message.split('\n')[0]})`);
} finally {
  await browser?.close();
  server?.kill();
  rmSync(profile, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
}

const base = rows[0];
console.log(`Full double-dummy tables, ${deals} deals (seed ${seed}), ${cores} cores:`);
console.log('setting'.padEnd(40) + 'seconds'.padStart(9) + 'tables/s'.padStart(10) + '  vs native 1 thread  same tables');
for (const r of rows) {
  console.log(r.setting.padEnd(40) + r.seconds.toFixed(2).padStart(9) + r.rate.toFixed(2).padStart(10) +
    `  ${(r.rate / base.rate).toFixed(2)}x`.padEnd(21) + (r.output === base.output ? 'yes' : 'NO'));
}
for (const where of ['Node', 'Chromium']) {
  const [one, ...more] = rows.filter((r) => r.setting.startsWith(`WebAssembly in ${where}`));
  if (!one) continue;
  console.log(`target (${where}): one worker >= 0.5x native on one thread: ${(one.rate / base.rate).toFixed(2)}x, ${one.rate / base.rate >= 0.5 ? 'met' : 'NOT met'}`);
  for (const r of more) {
    const n = Number(r.setting.match(/(\d+) workers/)[1]);
    const speedup = r.rate / one.rate;
    console.log(`target (${where}): ${n} workers >= 0.8 x ${n} x one worker: ${speedup.toFixed(2)}x of ${(0.8 * n).toFixed(2)}x, ${speedup >= 0.8 * n ? 'met' : 'NOT met'}`);
  }
}
if (rows.some((r) => r.output !== base.output)) process.exitCode = 1;
