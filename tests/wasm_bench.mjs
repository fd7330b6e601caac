// Benchmark of the WebAssembly build (not a test): for each script of tests/bench (or the
// arguments) and each generator, deals generated per second in the playground's Web Worker
// (headless chromium, one thread) against the native CLI on one thread (--dialect=v2 -R 1), the median of
// RUNS runs (default 3), plus the gzipped .wasm size and the page's time to ready. Needs
// `make wasm`, chromium and bindings/wasm/node_modules (tools/install_wasm_tools.sh test).
// Usage: node tests/wasm_bench.mjs [script ...]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { top } from '../bindings/wasm/tests/cases.mjs';

const require = createRequire(join(top, 'bindings/wasm/package.json'));
const { chromium } = require('playwright-core');
const runs = Number(process.env.RUNS || 3);
const scripts = process.argv.length > 2 ? process.argv.slice(2) : readdirSync(join(top, 'tests/bench')).map((f) => join(top, 'tests/bench', f));
const cli = join(top, 'target/release/dealer');
const median = (a) => a.slice().sort((x, y) => x - y)[Math.floor(a.length / 2)];

function nativeRate(file, generator) {
  const rates = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    const out = execFileSync(cli, [`--rng=${generator}`, '--dialect=v2', '-R', '1', '-s', '1', file], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const s = Number(process.hrtime.bigint() - t) / 1e9;
    rates.push(Number(out.match(/Generated (\d+) hands/)[1]) / s);
  }
  return median(rates);
}

const wasm = readFileSync(join(top, 'bindings/wasm/pkg/gen/dealer_wasm_bg.wasm'));
console.log(`wasm: ${wasm.length} bytes, ${gzipSync(wasm, { level: 9 }).length} gzipped`);
const port = await new Promise((resolve) => { const s = createServer(); s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); }); });
const server = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', join(top, 'bindings/wasm')], { stdio: 'ignore' });
const profile = mkdtempSync(join(tmpdir(), 'dealer-chromium-'));
await new Promise((r) => setTimeout(r, 700));
const browser = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage();
  const t0 = Date.now();
  await page.goto(`http://127.0.0.1:${port}/www/`);
  await page.waitForSelector('body[data-ready="true"]');
  console.log(`page ready (module loaded, worker started, example checked): ${Date.now() - t0} ms`);
  const first = await page.evaluate(async () => {
    const t = performance.now();
    let firstOut = null;
    await window.playground.worker.generate('produce 1\naction printoneline\n', { seed: 1, deals: 0 }, { onOutput: () => { if (firstOut === null) firstOut = performance.now() - t; } });
    return firstOut;
  });
  console.log(`first deal printed by the worker after the page was ready: ${first.toFixed(1)} ms`);
  console.log('script\tgenerator\tnative deals/s\tworker deals/s\tworker/native');
  for (const file of scripts) {
    const text = readFileSync(file, 'utf8');
    for (const generator of ['chacha', 'drand48', 'glibc']) {
      const rates = [];
      for (let i = 0; i < runs; i++) {
        const r = await page.evaluate(([text, generator]) => window.playground.worker.generate(text, { seed: 1, generator, dialect: 'v2', deals: 0 }), [text, generator]);
        rates.push(r.statistics.generated / (r.timing.ms / 1000));
      }
      const w = median(rates);
      const n = nativeRate(file, generator);
      console.log(`${basename(file)}\t${generator}\t${Math.round(n)}\t${Math.round(w)}\t${(w / n).toFixed(2)}`);
    }
  }
} finally {
  await browser.close();
  server.kill();
  rmSync(profile, { recursive: true, force: true });
}
