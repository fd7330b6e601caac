// `make wasm-bench`: full double-dummy tables per second, the WebAssembly build (DDS's own
// module) in Node and in headless Chromium against the native library, on the same deals:
// a script that prints each deal's 20 results (`printrpt(trix(deal))`), dealt with the same
// seed everywhere. Native: the CLI with -R 1 and -R <cores>; WebAssembly: one DDS module
// (generate() in Node, the playground's worker in Chromium). Prints one row per setting with
// tables per second and the ratio to native on one thread, and the targets of issue 36
// (one worker >= 0.5x native one thread).
//   node tests/bench_wasm_dd.mjs [deals=40] [seed=2026]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { top } from '../bindings/wasm/tests/cases.mjs';
import { init, generate, loadDoubleDummy } from '../bindings/wasm/pkg/index.js';

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

// Node: one DDS module in this thread (the module loaded and compiled before the clock starts).
await init();
await loadDoubleDummy();
{
  const t = process.hrtime.bigint();
  const r = generate(script, { seed, deals: 0, options: { statistics: 'false' } });
  if (r.error) throw new Error(r.error.message);
  row('WebAssembly in Node, 1 module', Number(process.hrtime.bigint() - t) / 1e9, r.output);
}

// Chromium: the playground's worker (DDS loaded by a first, small DD job before the clock starts).
const chrome = process.env.CHROMIUM || '/usr/bin/chromium';
const { chromium } = createRequire(join(top, 'bindings/wasm/package.json'))('playwright-core');
const port = await new Promise((resolve) => {
  const s = createServer();
  s.listen(0, '127.0.0.1', () => { const { port: p } = s.address(); s.close(() => resolve(p)); });
});
const server = spawn('python3', ['-m', 'http.server', '--bind', '127.0.0.1', '--directory', join(top, 'bindings/wasm'), String(port)], { stdio: 'ignore' });
const profile = mkdtempSync(join(tmpdir(), 'dealer-bench-chromium-'));
let browser;
try {
  for (let i = 0; i < 100; i++) {
    try { if ((await fetch(`http://127.0.0.1:${port}/www/`)).ok) break; } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  browser = await chromium.launchPersistentContext(profile, { executablePath: chrome, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${port}/www/`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  const got = await page.evaluate(async ({ script, seed }) => {
    const w = window.playground.worker;
    await w.generate('produce 1\naction printrpt(trix(deal))\n', { seed: 1, deals: 0 });
    const t = performance.now();
    const r = await w.generate(script, { seed, deals: 0, options: { statistics: 'false' } });
    return { seconds: (performance.now() - t) / 1000, output: r.error ? `error: ${r.error.message}` : r.output };
  }, { script, seed });
  row('WebAssembly in Chromium, 1 worker', got.seconds, got.output);
} catch (e) {
  console.log(`Chromium: NOT RUN (${e.message.split('\n')[0]})`);
} finally {
  await browser?.close();
  server.kill();
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
const one = rows.find((r) => r.setting.startsWith('WebAssembly in Node'));
console.log(`target: one WebAssembly module >= 0.5x native on one thread: ${(one.rate / base.rate).toFixed(2)}x ${one.rate / base.rate >= 0.5 ? 'met' : 'NOT met'}`);
if (rows.some((r) => r.output !== base.output)) process.exitCode = 1;
