// The npm package in a real browser (headless Debian chromium driven by playwright-core), as
// tests/release.sh's part 4 calls it: `node release_npm_browser.mjs WORK VERSION`, where WORK
// holds artifacts/libdealer-VERSION.tgz, node.dlr and dd.dlr (scripts, the second with double
// dummy) and cli.deals and cli-dd.deals (what the installed CLI prints for them with seed 7).
// The pages are served cross-origin isolated (tests/static_server.mjs). Two pages, each installing the tarball into a fresh folder:
//  - a plain page: index.html with an import map naming node_modules/libdealer/index.js and a
//    `<script type="module">`, served as it is (no build step);
//  - bundled pages: the same code bundled by Vite and by webpack (from the npm registry, exact
//    versions), served from the bundler's dist/ folder, where it must have emitted the .wasm.
// On each: init() with no argument, generate() prints what the CLI prints, check() finds the
// error's line, and libdealer/worker-client.js deals the same in a Web Worker, double dummy too
// (DDS's module and its solver workers, bundled with the page by the bundlers). Prints one
// `ok<TAB>what` or `ko<TAB>what` line per check (release.sh counts them).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { serve } from './static_server.mjs';

/**
 * The bundlers the bundled pages are built with, at exact versions: what to install, the build
 * command, the page in the project's root that the bundler reads (Vite) or the page written
 * into dist/ beside the bundle after the build (webpack).
 */
const BUNDLERS = [
  { name: 'vite@8.3.8', install: ['vite@8.3.8'], build: ['vite', 'build'], sourcePage: true },
  {
    name: 'webpack@5.112.2',
    install: ['webpack@5.112.2', 'webpack-cli@7.3.1'],
    build: ['webpack', '--mode', 'production', '--entry', './app.js', '--output-path', 'dist'],
    distPage: '<script src="./main.js"></script>',
  },
];
const [work, version] = process.argv.slice(2);
const top = join(dirname(fileURLToPath(import.meta.url)), '..');
// The test's own tool (not the artifact under test): playwright-core of bindings/wasm's tests.
const { chromium } = createRequire(join(top, 'bindings/wasm/package.json'))('playwright-core');
const tgz = join(work, 'artifacts', `libdealer-${version}.tgz`);
const expected = readFileSync(join(work, 'cli.deals'), 'utf8');
const expectedDd = readFileSync(join(work, 'cli-dd.deals'), 'utf8');
/** The solver workers the package's worker takes on a cross-origin isolated page. */
const solvers = Math.max(1, Math.min(4, availableParallelism()));

function report(passed, what) {
  process.stdout.write(`${passed ? 'ok' : 'ko'}\t${what.replace(/\s+/g, ' ')}\n`);
}

/** The page's code, the same for both pages: everything it finds lands in window.result. */
const APP = `import { init, check, generate, version } from 'libdealer';
import { DealerWorker } from 'libdealer/worker-client.js';
const result = {};
try {
  await init();
  const script = await (await fetch('./node.dlr')).text();
  const run = generate(script, { seed: 7 });
  Object.assign(result, { version: version(), ok: run.ok, output: run.output,
    errorLines: check('condition hcp(north) >=\\n', { bbo: false }).map((e) => e.line) });
  const worker = new DealerWorker(undefined, { loadTimeoutMs: 15000 });
  try {
    result.workerOutput = (await worker.generate(script, { seed: 7 })).output;
    // Double dummy: the worker loads DDS's module (and its solver workers) by itself.
    const dd = await worker.generate(await (await fetch('./dd.dlr')).text(), { seed: 7 });
    Object.assign(result, { ddOutput: dd.output, ddError: dd.error && dd.error.message, ddWorkers: dd.doubleDummyWorkers });
  } catch (e) {
    result.workerError = String(e && e.message ? e.message : e);
  }
  worker.terminate();
} catch (e) {
  result.error = String(e && e.stack ? e.stack : e);
}
window.result = result;
document.body.dataset.done = 'true';
`;
const page = (head, script = '<script type="module" src="./app.js"></script>') => `<!doctype html>
<html><head><meta charset="utf-8"><title>libdealer from npm</title>${head}</head>
<body>${script}</body></html>
`;

function npm(dir, ...args) {
  execFileSync('npm', [...args, '--no-audit', '--no-fund'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A fresh folder with the tarball installed (npm init, npm install). */
function freshProject(name) {
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('npm', ['init', '-y'], { cwd: dir, stdio: 'ignore' });
  npm(dir, 'install', '--offline', tgz);
  return dir;
}

const strip = (text) => text.split('\n').filter((l) => !l.startsWith('Time needed')).join('\n');

/** Loads the page served from `dir` and reports what it found, as `label`. */
async function checkPage(browser, dir, label) {
  const { url, server } = await serve(dir);
  try {
    const tab = await browser.newPage();
    const errors = [];
    tab.on('pageerror', (e) => errors.push(String(e)));
    const wasmFetched = [];
    tab.on('response', (r) => { if (r.url().endsWith('.wasm') && r.ok()) wasmFetched.push(r.url()); });
    await tab.goto(url);
    await tab.waitForSelector('body[data-done="true"]', { state: 'attached', timeout: 30000 });
    const got = await tab.evaluate(() => window.result);
    if (got.error || errors.length) {
      report(false, `${label}: ${got.error || errors.join('; ')}`);
      return;
    }
    report(got.version === version && got.ok && strip(got.output) === expected && wasmFetched.length > 0,
      `${label}: init() fetches its .wasm itself (${wasmFetched.length} fetched), version ${got.version}, generate() prints what the installed CLI prints (${expected.split('\n').length - 1} lines)`);
    report(JSON.stringify(got.errorLines) === '[2]', `${label}: check() marks the error on line ${got.errorLines}`);
    report(got.workerOutput !== undefined && strip(got.workerOutput) === expected,
      `${label}: worker-client.js deals the same in a Web Worker${got.workerError ? ` (${got.workerError})` : ''}`);
    report(got.ddOutput !== undefined && strip(got.ddOutput) === expectedDd && got.ddWorkers === solvers,
      `${label}: double dummy in the worker prints what the installed CLI prints, on ${got.ddWorkers} solver workers (want ${solvers})${got.ddError ? ` (${got.ddError})` : ''}`);
    await tab.close();
  } catch (e) {
    report(false, `${label}: ${e.message}`);
  } finally {
    server.kill();
  }
}

const profile = mkdtempSync(join(tmpdir(), 'dealer-npm-chromium-'));
let browser;
try {
  const plain = freshProject('plain-app');
  writeFileSync(join(plain, 'index.html'),
    page('<script type="importmap">{"imports": {"libdealer": "./node_modules/libdealer/index.js", ' +
      '"libdealer/worker-client.js": "./node_modules/libdealer/worker-client.js"}}</script>'));
  writeFileSync(join(plain, 'app.js'), APP);
  for (const f of ['node.dlr', 'dd.dlr']) copyFileSync(join(work, f), join(plain, f));

  const bundledPages = [];
  for (const bundler of BUNDLERS) {
    const dir = freshProject(`${bundler.name.split('@')[0]}-app`);
    try {
      execFileSync('npm', ['pkg', 'set', 'type=module'], { cwd: dir, stdio: 'ignore' });
      npm(dir, 'install', '-D', '-E', ...bundler.install);
      writeFileSync(join(dir, 'app.js'), APP);
      if (bundler.sourcePage) writeFileSync(join(dir, 'index.html'), page(''));
      execFileSync('npx', bundler.build, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      const dist = join(dir, 'dist');
      if (bundler.distPage) writeFileSync(join(dist, 'index.html'), page('', bundler.distPage));
      for (const f of ['node.dlr', 'dd.dlr']) copyFileSync(join(work, f), join(dist, f));
      const files = readdirSync(dist, { recursive: true }).filter((f) => /\.(js|wasm)$/.test(f));
      report(files.some((f) => f.endsWith('.wasm')), `${bundler.name} bundles the package (${files.join(' ')})`);
      bundledPages.push([dist, `a page bundled by ${bundler.name}`]);
    } catch (e) {
      report(false, `${bundler.name}: ${String(e.stderr || e.message).split('\n').slice(-6).join(' ')}`);
    }
  }

  browser = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  await checkPage(browser, plain, 'a plain <script type=module> page with an import map');
  for (const [dist, label] of bundledPages) await checkPage(browser, dist, label);
} catch (e) {
  report(false, `the npm package in the browser: ${e.message}`);
} finally {
  await browser?.close();
  rmSync(profile, { recursive: true, force: true });
}
