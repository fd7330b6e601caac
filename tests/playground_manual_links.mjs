// The playground's links into the manual (run by tests/docs.sh after `make docs` and `make wasm`):
// reference-index.json (tools/reference_index.py) names the sections the playground needs and
// every link of it has its anchor in the built book; keywords() of the WebAssembly package; then
// the playground, served as tests/wasm_browser.mjs serves it with the book at www/manual/, in
// headless Chromium: a misspelled function's problem links to the "unknown variable" entry of
// the errors page, the caret on `hcp` shows a line linking to its section of the
// hand-evaluation page, a word the reference does not describe shows none, and without the
// index the problems show no link.
// Prints PASS/FAIL per check and `N passed, M failed`.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { serve } from './static_server.mjs';
import { check, expect, fail, finish } from './checks.mjs';
import { launchChromium } from './chromium.mjs';

const top = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const book = join(top, 'target/docs/html');
const require = createRequire(join(top, 'bindings/wasm/package.json'));
const { chromium } = require('playwright-core');


// Whether the built page `href` (reference/PAGE.html#ANCHOR) has an element with that id.
function anchorExists(href) {
  const [page, anchor] = href.split('#');
  const file = join(book, page);
  return existsSync(file) && readFileSync(file, 'utf8').includes(`id="${anchor}"`);
}

const index = JSON.parse(readFileSync(join(book, 'reference-index.json'), 'utf8'));

await check('reference-index.json names the keywords and errors the playground links', async () => {
  const missing = ['hcp', 'shape', 'printoneline', 'predeal', 'dds', 'losers'].filter((w) => !index.names[w]);
  expect(missing.length === 0, `no section for ${missing.join(', ')}`);
  expect(index.names.hcp.startsWith('reference/hand-evaluation.html#'), `hcp: ${index.names.hcp}`);
  expect(index.names.shape.startsWith('reference/shapes.html#'), `shape: ${index.names.shape}`);
  const texts = index.errors.map((e) => e.text);
  for (const t of ['unknown variable', 'division by zero']) expect(texts.includes(t), `no error entry "${t}"`);
  expect(index.errors.every((e) => e.href.startsWith('reference/errors.html#')), 'an error entry outside errors.html');
});

await check('every link of reference-index.json has its anchor in the book', async () => {
  const hrefs = [...Object.values(index.names), ...index.errors.map((e) => e.href)];
  const broken = hrefs.filter((h) => !anchorExists(h));
  expect(broken.length === 0, `broken: ${[...new Set(broken)].join(', ')}`);
});

await check('keywords() gives each dialect its keywords', async () => {
  const { init, keywords } = await import('../bindings/wasm/pkg/index.js');
  await init();
  const v2 = keywords('v2');
  const classic = keywords('classic');
  for (const w of ['hcp', 'shape', 'printoneline', 'predeal', 'losers', 'dds']) expect(v2.includes(w), `v2 lacks ${w}`);
  expect(JSON.stringify(keywords()) === JSON.stringify(v2), 'the default is not v2');
  expect(classic.includes('hcp') && !classic.includes('dds'), 'classic: dds is DealerV2\'s, hcp is everyone\'s');
});

// The playground as tests/wasm_browser.mjs serves it (www/ beside pkg/), the book at www/manual/.
const site = mkdtempSync(join(tmpdir(), 'dealer-playground-'));
mkdirSync(join(site, 'www'));
for (const f of readdirSync(join(top, 'bindings/wasm/www'))) copyFileSync(join(top, 'bindings/wasm/www', f), join(site, 'www', f));
symlinkSync(join(top, 'bindings/wasm/pkg'), join(site, 'pkg'));
symlinkSync(book, join(site, 'www/manual'));
const { url: root, server } = await serve(site, 'www/');
const profile = mkdtempSync(join(tmpdir(), 'dealer-chromium-'));
let browser;
try {
  const base = `${root}www/`;
  // No service worker: every fetch reaches the server (and page.route below).
  browser = await launchChromium(chromium, profile, { serviceWorkers: 'block' });
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(base);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });

  // Whether the page served at `url` (absolute, with #anchor) has that anchor, read by the browser.
  const servedAnchor = (url) => page.evaluate(async (u) => {
    const doc = new DOMParser().parseFromString(await (await fetch(u)).text(), 'text/html');
    const el = doc.getElementById(new URL(u).hash.slice(1));
    return el ? el.textContent : null;
  }, url);

  await check('a misspelled function\'s problem links to "unknown variable" in the manual', async () => {
    await page.fill('#script', 'condition shpae(south, any 4333)\n');
    // Every problem of this script (not of the example before it) with its link.
    await page.waitForFunction(() => {
      const items = [...document.querySelectorAll('#problems li')];
      return items.length > 0 && items.every((li) => /unknown/.test(li.textContent) && li.querySelector('a.reference'));
    }, null, { timeout: 5000 });
    const links = await page.$$eval('#problems li a.reference', (l) => l.map((a) => ({ href: a.href, target: a.target, rel: a.rel, text: a.textContent })));
    const want = `${base}manual/reference/errors.html#unknown-variable`;
    expect(links.length > 0 && links.every((l) => l.href === want), `links ${JSON.stringify(links)}, want ${want}`);
    expect(links.every((l) => l.target === '_blank' && l.rel === 'noopener' && l.text === 'reference'), JSON.stringify(links));
    const heading = await servedAnchor(want);
    expect(heading === 'unknown variable', `the served page's #unknown-variable: ${heading}`);
  });

  // Puts the caret at `offset` of the editor's text.
  const caret = (offset) => page.evaluate((at) => {
    const editor = document.getElementById('script');
    editor.focus();
    editor.setSelectionRange(at, at);
  }, offset);

  await check('the caret on hcp shows a line linking to its section', async () => {
    await page.fill('#script', 'condition hcp(north) > 15\n');
    await caret(11);
    await page.waitForSelector('#word-help a', { timeout: 5000 });
    const link = await page.$eval('#word-help a', (a) => ({ href: a.href, target: a.target, rel: a.rel, text: a.textContent }));
    expect(link.text === 'hcp — reference', `text "${link.text}"`);
    expect(link.href.startsWith(`${base}manual/reference/hand-evaluation.html#`), `href ${link.href}`);
    expect(link.target === '_blank' && link.rel === 'noopener', JSON.stringify(link));
    const heading = await servedAnchor(link.href);
    expect(heading !== null && /\bhcp\b/.test(heading), `the section's heading: ${heading}`);
  });

  await check('a word the reference does not describe shows no link', async () => {
    await caret(24); // in "15"
    await page.waitForFunction(() => document.querySelector('#word-help a') === null, null, { timeout: 5000 });
  });

  await check('without the manual the problems show no link and nothing else changes', async () => {
    const bare = await browser.newPage();
    let asked = 0;
    await bare.route('**/reference-index.json', (r) => { asked++; return r.fulfill({ status: 404, body: 'missing' }); });
    await bare.goto(base);
    await bare.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
    await bare.fill('#script', 'condition shpae(south, any 4333)\n');
    await bare.waitForSelector('#gutter div.error[data-line="1"]', { timeout: 5000 });
    await bare.evaluate(() => {
      const editor = document.getElementById('script');
      editor.focus();
      editor.setSelectionRange(1, 1); // on "condition", a keyword
    });
    await bare.waitForTimeout(200);
    const { links, problems } = await bare.evaluate(() => ({
      links: document.querySelectorAll('#problems a, #word-help a').length,
      problems: [...document.querySelectorAll('#problems li')].map((li) => li.textContent),
    }));
    expect(asked === 1, `reference-index.json asked for ${asked} times, want once`);
    expect(links === 0, `${links} links`);
    expect(problems.length > 0 && problems.every((t) => /unknown/.test(t)), JSON.stringify(problems));
    await bare.close();
  });
  expect(errors.length === 0, errors.join('; '));
} catch (e) {
  fail(`the browser test: ${e.message}`);
} finally {
  if (browser) await browser.close();
  server.kill();
  rmSync(profile, { recursive: true, force: true });
  rmSync(site, { recursive: true, force: true });
}
finish();
