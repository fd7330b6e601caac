// The playground in a real browser (headless Debian chromium driven by playwright-core, no
// browser download): serves bindings/wasm on 127.0.0.1 with python3's http.server, then checks
// that a script error marks its line, that runs print exactly what the native CLI prints for
// parity scripts (drand48, glibc, chacha) and for double-dummy scripts (DDS's own module, which
// the worker loads when a job needs it), that the double-dummy example shows its results and its
// PBN download carries the table and par, that Stop ends a long run, double dummy too, within
// 1 s, that the examples run (the third with bar charts and a 2-D frequency's heat-map table),
// that the page and that table fit a phone, that a page loaded once reloads and runs with the
// server stopped, that a study link (script and seed in the fragment) reopens and runs, its
// opening-lead table equal to the native CLI's and sortable, with the statistics' intervals, that
// input records pasted into the page, or a file dropped on it, run through the script print what
// the native CLI prints reading the same file (the example with records reads its tables without
// solving), and that a worker that cannot load fails its job; saves screenshots in
// target/wasm-test/ (playground.png, playground-phone.png, playground-phone-heatmap.png,
// playground-hand-types.png: the Hand types panel of a levelled run, whose levelled script must
// download as the native CLI writes it); and makes the README's picture (see readmePicture).
// Prints `N passed, M failed`.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { CASES, DD_CASES, apiOptions, cli, dl52, mask, native, script, top } from '../bindings/wasm/tests/cases.mjs';
import { serve } from './static_server.mjs';
import { check, expect, fail, finish } from './checks.mjs';
import { launchChromium } from './chromium.mjs';

const cores = availableParallelism();

const require = createRequire(join(top, 'bindings/wasm/package.json'));
const { chromium } = require('playwright-core');

const artefacts = join(top, 'target/wasm-test');
mkdirSync(artefacts, { recursive: true });


// The Statistics tab after a run of the third example (one 2-D frequency, hcp 12..20 by spades
// 2..6): one heat-map table with a caption, a header row, 11 value rows and a Sum row, each value
// row 7 shaded count cells and its sum, the numbers those of the run's statistics.frequencies2d.
async function checkHeatMap(p) {
  const got = await p.evaluate(() => [...document.querySelectorAll('#stats table.heat')].map((t) => ({
    caption: t.caption && t.caption.textContent,
    columns: [...t.tHead.querySelectorAll('th[scope="col"]')].map((th) => th.textContent),
    rows: [...t.tBodies[0].rows].map((r) => ({
      label: r.querySelector('th[scope="row"]').textContent,
      counts: [...r.querySelectorAll('td.cell')].map((td) => Number(td.textContent)),
      shades: [...r.querySelectorAll('td.cell')].map((td) => getComputedStyle(td).backgroundColor),
      sum: Number(r.querySelector('td.sum').textContent),
    })),
    foot: [...t.tFoot.querySelectorAll('td')].map((td) => Number(td.textContent)),
  })));
  const want = await p.evaluate(() => window.playground.lastResult.statistics.frequencies2d);
  expect(got.length === 1 && want.length === 1, `${got.length} heat-map tables, ${want.length} 2-D tables, want 1`);
  const [t] = got;
  expect(t.caption === want[0].title && /by spades/.test(t.caption), `caption ${t.caption}`);
  expect(JSON.stringify(t.columns) === JSON.stringify([...want[0].columns, 'Sum']) && t.columns.length === 8, `columns ${t.columns}`);
  expect(t.rows.length === 11 && t.rows.every((r) => r.counts.length === 7), `rows ${t.rows.map((r) => r.counts.length)}`);
  expect(JSON.stringify(t.rows.map(({ label, counts, sum }) => ({ label, counts, sum }))) === JSON.stringify(want[0].rows), 'cells differ from statistics.frequencies2d');
  expect(JSON.stringify(t.foot) === JSON.stringify([...want[0].columnSums, want[0].total]), `Sum row ${t.foot}`);
  // Shaded by count: the largest count's cell is darker than an empty cell.
  const cells = t.rows.flatMap((r) => r.counts.map((n, i) => [n, r.shades[i]]));
  const max = cells.reduce((a, c) => (c[0] > a[0] ? c : a));
  const zero = cells.find((c) => c[0] === 0);
  expect(zero && max[1] !== zero[1], `shades: max ${max[1]}, zero ${zero && zero[1]}`);
}

// Selects the playground's double-dummy example (the one whose title starts "Double dummy").
async function selectDoubleDummyExample(page) {
  const index = await page.$$eval('#example option', (o) => o.findIndex((x) => x.textContent.startsWith('Double dummy')));
  expect(index >= 0, 'no double-dummy example');
  await page.selectOption('#example', String(index));
}

// The README's picture, bindings/wasm/playground.png: a fresh page (1280 x 900) that ran the
// double-dummy example, on its Output tab. What the page showed (the example, its script, the
// status, the output and the footer; durations masked) is kept beside it in playground.txt; when
// that differs, the picture and the text are rewritten in the checkout (commit them), and under
// CI=true the check fails, so the picture cannot go stale.
async function readmePicture(browser, base) {
  const page = await browser.newPage();
  try {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(base);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
    await selectDoubleDummyExample(page);
    await page.click('#run');
    await page.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.state) && !window.playground.running, null, { timeout: 60000 });
    await page.click('#tab-output');
    const shown = await page.evaluate(() => ({
      example: document.querySelector('#example option:checked').textContent,
      script: document.getElementById('script').value,
      status: document.getElementById('status').textContent,
      output: document.getElementById('output').textContent,
      footer: document.querySelector('footer').textContent,
    }));
    expect(/North's NT tricks: Mean=/.test(shown.output) && /par for NS/.test(shown.output), `output:\n${shown.output.slice(0, 300)}`);
    expect(!/not available/i.test(JSON.stringify(shown)), `the page says something is not available: ${JSON.stringify(shown)}`);
    // Durations masked: the status's "in 1.79 s", the output's "Time needed    1.001 sec".
    const text = `${JSON.stringify(shown, null, 2).replace(/(in |needed +)\d+(\.\d+)? ?(ms|s|sec)\b/g, '$1T')}\n`;
    const shot = join(artefacts, 'readme-playground.png');
    await page.screenshot({ path: shot });
    const picture = join(top, 'bindings/wasm/playground.png');
    const record = join(top, 'bindings/wasm/playground.txt');
    if (!existsSync(picture) || !existsSync(record) || readFileSync(record, 'utf8') !== text) {
      copyFileSync(shot, picture);
      writeFileSync(record, text);
      console.log('the README picture changed: bindings/wasm/playground.png and playground.txt rewritten, commit them');
      expect(process.env.CI !== 'true', 'the README picture was stale (rewritten in the checkout: commit bindings/wasm/playground.png and playground.txt)');
    }
  } finally {
    await page.close();
  }
}

// The playground served cross-origin isolated, with no HTTP caching (tests/static_server.mjs).
const { url: root, server } = await serve(join(top, 'bindings/wasm'), 'www/');
const profile = mkdtempSync(join(tmpdir(), 'dealer-chromium-'));
let browser;
try {
  const base = `${root}www/`;
  browser = await launchChromium(chromium, profile, { viewport: { width: 1280, height: 900 } });
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // DDS's module, fetched (by the page or its workers) only for a job that needs it.
  const ddsFetches = [];
  browser.on('request', (r) => { if (r.url().endsWith('/dds.wasm')) ddsFetches.push(r.url()); });
  const t0 = Date.now();
  await page.goto(base);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
  const loadMs = Date.now() - t0;

  await check('the page loads with the first example checked clean', async () => {
    const problems = await page.$$eval('#problems li.error', (l) => l.length);
    expect(problems === 0, `${problems} errors on the first example`);
    expect(errors.length === 0, errors.join('; '));
  });

  await check('a script error marks its line as you type', async () => {
    await page.fill('#script', 'produce 3\ncondition hcp(north) >= 15 &&\n  shape(north, 5xxx) >\naction printall\n');
    await page.waitForSelector('#gutter div.error[data-line="4"]', { timeout: 5000 });
    const lines = await page.$$eval('#gutter div.error', (l) => l.map((d) => d.dataset.line));
    expect(JSON.stringify(lines) === '["4"]', `marked lines ${JSON.stringify(lines)}, want ["4"]`);
    const text = await page.textContent('#problems');
    expect(/line 4/.test(text), text);
    await page.fill('#script', 'produce 3\ncondition hcp(north) >= 15\naction printall\n');
    await page.waitForFunction(() => document.querySelectorAll('#gutter div.error').length === 0, null, { timeout: 5000 });
  });

  await check('a misspelled function is named with the nearest one', async () => {
    await page.fill('#script', 'condition shpae(south, any 4333)\n');
    await page.waitForSelector('#gutter div.error[data-line="1"]', { timeout: 5000 });
    const text = await page.textContent('#problems');
    expect(text.includes("line 1, column 11: unknown function 'shpae' (did you mean 'shape'?)"), text);
    await page.fill('#script', 'produce 3\ncondition hcp(north) >= 15\naction printall\n');
    await page.waitForFunction(() => document.querySelectorAll('#gutter div.error').length === 0, null, { timeout: 5000 });
  });

  const firstResult = {};
  for (const c of CASES.filter((_, i) => i % 2 === 0)) {
    await check(`a run prints what the native CLI prints: ${c.file} (${c.generator}, seed ${c.seed})`, async () => {
      const want = native(c);
      const o = apiOptions(c);
      await page.evaluate(({ text, o }) => {
        document.getElementById('script').value = text;
        document.getElementById('seed').value = String(o.seed);
        document.getElementById('generator').value = o.generator;
        document.getElementById('dialect').value = '';
        document.getElementById('produce').value = o.produce ? String(o.produce) : '';
        document.getElementById('format').value = 'text';
        window.playground.inputName = o.inputName;
      }, { text: script(c), o });
      const started = Date.now();
      await page.click('#run');
      await page.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.state) && !window.playground.running, null, { timeout: 60000 });
      firstResult[c.file] = Date.now() - started;
      const got = await page.evaluate(() => window.playground.lastResult.output);
      expect(mask(got) === mask(want), `output differs:\n--- got\n${got.slice(0, 400)}\n--- want\n${want.slice(0, 400)}`);
    });
  }

  // Double dummy in the browser: the worker loads DDS's module when a job needs it, and not before.
  await check('no run so far (none solves double dummy) fetched DDS\'s module', async () => {
    expect(ddsFetches.length === 0, `fetched ${ddsFetches.join(' ')}`);
  });
  for (const c of DD_CASES) {
    await check(`double dummy prints what the native CLI prints: ${c.file} (${c.generator}, seed ${c.seed}${c.flags ? ' ' + c.flags.join(' ') : ''})`, async () => {
      const want = native(c);
      const { got, workers, isolated } = await page.evaluate(async ({ text, o }) => {
        const r = await window.playground.worker.generate(text, o);
        return { got: r.error ? `error: ${r.error.message}` : r.output, workers: r.doubleDummyWorkers, isolated: crossOriginIsolated };
      }, { text: script(c), o: apiOptions(c) });
      const solvers = Math.min(4, cores);
      expect(isolated && workers === solvers, `solved on ${workers} solver workers (cross-origin isolated: ${isolated}), want ${solvers}`);
      expect(mask(got) === mask(want), `output differs:\n--- got\n${got.slice(0, 400)}\n--- want\n${want.slice(0, 400)}`);
    });
  }

  await check('the first double-dummy job fetched DDS\'s module (the same watch saw none before)', async () => {
    expect(ddsFetches.length > 0, 'no fetch of dds.wasm seen');
  });

  await check('the double-dummy example shows its results; its PBN download carries the table and par', async () => {
    await selectDoubleDummyExample(page);
    await page.click('#run');
    await page.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.state) && !window.playground.running, null, { timeout: 60000 });
    const r = await page.evaluate(() => ({ state: document.body.dataset.state, output: window.playground.lastResult.output }));
    expect(r.state === 'done' && /North's NT tricks: Mean=\s+\d/.test(r.output) && /par for NS/.test(r.output), `state ${r.state}:\n${r.output.slice(0, 300)}`);
    const shown = await page.$eval('#output', (e) => e.textContent);
    expect(shown.includes("North's NT tricks"), 'the output panel does not show the averages');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#dl-pbn')]);
    const pbn = readFileSync(await download.path(), 'utf8');
    const boards = (pbn.match(/\[Deal "/g) || []).length;
    const tables = (pbn.match(/\[OptimumResultTable /g) || []).length;
    const pars = (pbn.match(/\[ParContract /g) || []).length;
    expect(boards === 4 && tables === 4 && pars === 4, `${boards} deals, ${tables} tables, ${pars} par contracts:\n${pbn.slice(0, 400)}`);
    expect(/\[Date "\d{4}\.\d\d\.\d\d"\]/.test(pbn), 'PBN [Date] is not the browser\'s date');
  });

  await check('the README picture shows a double-dummy run on a fresh page, and is current', () => readmePicture(browser, base));

  for (const [what, condition, running] of [
    ['a double-dummy run', 'tricks(north, notrumps) >= 13', 1500],
    ['a long run', 'hcp(north) >= 38', 700],
  ]) {
    await check(`Stop ends ${what} within 1 s`, async () => {
      await page.evaluate((text) => {
        document.getElementById('script').value = text;
        document.getElementById('seed').value = '1';
        document.getElementById('generator').value = 'chacha';
        document.getElementById('produce').value = '';
      }, `generate 2000000000\nproduce 2000000000\ncondition ${condition}\naction printoneline\n`);
      await page.click('#run');
      await page.waitForFunction(() => document.body.dataset.state === 'running');
      await page.waitForTimeout(running);
      const t = Date.now();
      await page.click('#stop');
      await page.waitForFunction(() => document.body.dataset.state === 'stopped', null, { timeout: 1000 });
      const ms = Date.now() - t;
      expect(ms < 1000, `stopped after ${ms} ms`);
      console.log(`  (stopped in ${ms} ms)`);
    });
  }

  await check('Hand types: natural against delivered shares, levelled in exact quotas, the levelled script downloads', async () => {
    const typed = await page.$$eval('#example option', (o) => o.findIndex((x) => x.textContent.startsWith('Hand types')));
    await page.selectOption('#example', String(typed));
    expect(await page.isVisible('#tab-types') && await page.isVisible('#level-box'), 'no Hand types tab or level checkbox for a script with hand types');
    await page.check('#level');
    await page.fill('#produce', '20');
    await page.click('#run');
    await page.waitForFunction(() => document.body.dataset.state === 'done' && !window.playground.running && window.playground.lastHandTypes, null, { timeout: 60000 });
    await page.click('#tab-types');
    const rows = await page.$$eval('#types table.types tbody tr', (rs) => rs.map((r) => [...r.children].map((c) => c.textContent)));
    expect(rows.length === 5, `${rows.length} rows`);
    expect(rows.every((r) => r[2] === '20.0 %' && r[3] === '20.0 %' && r[4] === '4'), JSON.stringify(rows));
    expect(rows[0][1] === '58.3 %' && rows[4][1] === '1.3 %', JSON.stringify(rows));
    const caption = await page.textContent('#types caption');
    expect(/counted exactly/.test(caption) && /exact quotas/.test(caption), caption);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#dl-leveled')]);
    const saved = readFileSync(await download.path(), 'utf8');
    expect(saved === readFileSync(join(top, 'tests/levelling/nt_ladder.leveled.dlr'), 'utf8'), "the downloaded levelled script differs from the native CLI's");
    await page.screenshot({ path: join(artefacts, 'playground-hand-types.png'), fullPage: true });
    // Nature's mix when not levelled: the delivered shares are the run's own.
    await page.uncheck('#level');
    await page.fill('#produce', '200');
    await page.click('#run');
    await page.waitForFunction(() => document.body.dataset.state === 'done' && !window.playground.running, null, { timeout: 60000 });
    const natural = await page.evaluate(() => window.playground.lastResult.handTypes.map((t) => t.produced));
    expect(natural.reduce((a, b) => a + b, 0) === 200 && natural[0] > natural[4], JSON.stringify(natural));
    await page.fill('#produce', '');
    await page.selectOption('#example', '0');
    expect(!(await page.isVisible('#tab-types')) && !(await page.isVisible('#level-box')), 'the Hand types tab stays for a script without hand types');
  });

  await check('the examples run, with hand diagrams, frequency charts and a heat map, and a screenshot is saved', async () => {
    const count = await page.$$eval('#example option', (o) => o.length);
    for (let i = count - 1; i >= 0; i--) {
      await page.selectOption('#example', String(i));
      await page.click('#run');
      await page.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.state) && !window.playground.running, null, { timeout: 60000 });
      const state = await page.evaluate(() => document.body.dataset.state);
      expect(state === 'done', `example ${i}: ${await page.textContent('#status')}`);
      if (i === 2) {
        await page.click('#tab-stats');
        const bars = await page.$$eval('.bars', (b) => b.length);
        expect(bars === 2, `${bars} frequency charts, want 2`);
        await checkHeatMap(page);
      }
    }
    await page.click('#tab-deals');
    const hands = await page.$$eval('.deal', (d) => d.length);
    expect(hands > 0, 'no hand diagrams');
    const text = await page.textContent('.deal');
    expect(text.includes('♠') && /HCP/.test(text), text);
    await page.screenshot({ path: join(artefacts, 'playground.png'), fullPage: true });
    const phone = await browser.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(base);
    await phone.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow <= 0, `the page is ${overflow} px wider than a phone`);
    await phone.screenshot({ path: join(artefacts, 'playground-phone.png'), fullPage: true });
    // The 2-D example's heat map on the phone: the table scrolls inside its box, the page does not.
    await phone.selectOption('#example', '2');
    await phone.click('#run');
    await phone.waitForFunction(() => document.body.dataset.state === 'done' && !window.playground.running, null, { timeout: 60000 });
    await phone.click('#tab-stats');
    await checkHeatMap(phone);
    const fit = await phone.evaluate(() => {
      const wrap = document.querySelector('.heat-wrap');
      return { page: document.documentElement.scrollWidth - window.innerWidth, scroll: getComputedStyle(wrap).overflowX,
        box: wrap.getBoundingClientRect().right - window.innerWidth };
    });
    expect(fit.page <= 0 && fit.box <= 0 && fit.scroll === 'auto', `heat map on a phone: ${JSON.stringify(fit)}`);
    await phone.screenshot({ path: join(artefacts, 'playground-phone-heatmap.png'), fullPage: true });
    // A table wider than the phone (freqEx2D: 11 count columns) scrolls sideways in its box.
    const wide = CASES.find((c) => c.file.endsWith('freqEx2D_s139.dli'));
    await phone.evaluate(({ text, o }) => {
      document.getElementById('script').value = text;
      document.getElementById('seed').value = String(o.seed);
      document.getElementById('generator').value = o.generator;
    }, { text: script(wide), o: apiOptions(wide) });
    await phone.click('#run');
    await phone.waitForFunction(() => document.body.dataset.state === 'done' && !window.playground.running, null, { timeout: 60000 });
    const scrolls = await phone.evaluate(() => {
      const wrap = document.querySelector('.heat-wrap');
      const cells = document.querySelectorAll('.heat tbody td.cell').length;
      return { page: document.documentElement.scrollWidth - window.innerWidth, inner: wrap.scrollWidth - wrap.clientWidth, cells };
    });
    expect(scrolls.page <= 0 && scrolls.inner > 0 && scrolls.cells === 16 * 11, `wide heat map on a phone: ${JSON.stringify(scrolls)}`);
    await phone.close();
  });
  await check('the PBN and LIN downloads hold the deals of the run', async () => {
    await page.selectOption('#example', '0');
    await page.click('#run');
    await page.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.state) && !window.playground.running, null, { timeout: 60000 });
    const deals = await page.evaluate(() => window.playground.lastResult.deals);
    expect(deals.length > 0, 'no deals');
    const fetchDownload = async (id) => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(`#${id}`)]);
      return readFileSync(await download.path(), 'utf8');
    };
    const pbn = await fetchDownload('dl-pbn');
    const pbnDeals = [...pbn.matchAll(/\[Deal "N:(\S+) (\S+) (\S+) (\S+)"\]/g)].map((m) => m.slice(1).join(' '));
    expect(JSON.stringify(pbnDeals) === JSON.stringify(deals.map((d) => `${d.N} ${d.E} ${d.S} ${d.W}`)), `PBN deals:\n${pbn.slice(0, 300)}`);
    const vulnerable = [...pbn.matchAll(/\[Vulnerable "(\w+)"\]/g)].map((m) => m[1]);
    expect(vulnerable.length === deals.length && vulnerable[0] === 'None' && (deals.length < 2 || vulnerable[1] === 'NS'), `[Vulnerable] tags ${vulnerable}`);
    const lin = await fetchDownload('dl-lin');
    const linBoards = lin.split('\n').filter((l) => l.includes('md|'));
    expect(linBoards.length === deals.length, `${linBoards.length} LIN boards for ${deals.length} deals:\n${lin.slice(0, 300)}`);
  });

  await check('input records: pasted PBN and a dropped DL52 file print what the native CLI prints reading them; the records stay out of the Link', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'input-'));
    writeFileSync(join(dir, 'deal.dlr'), 'produce 8\ncondition hcp(north) >= 8\naction printall\n');
    const records = execFileSync(cli, ['-s', '21', '--format=pbn', 'deal.dlr'], { cwd: dir, encoding: 'utf8' });
    const deals = [...records.matchAll(/^\[Deal "([^"]*)"\]/gm)].map((m) => m[1]);
    expect(deals.length === 8, `${deals.length} records`);
    writeFileSync(join(dir, 'deals.pbn'), records);
    writeFileSync(join(dir, 'deals.dl52'), dl52(deals));
    const reading = 'condition hcp(north) + hcp(south) >= 20\naction printall\n';
    writeFileSync(join(dir, 'read.dlr'), reading);
    const cliRead = (file, args) => execFileSync(cli, [`--input=${file}`, '-s', '5', ...args, 'read.dlr'], { cwd: dir, encoding: 'utf8' });
    const runPage = async (format) => {
      await page.selectOption('#format', format);
      await page.click('#run');
      await page.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.state) && !window.playground.running, null, { timeout: 60000 });
      return page.evaluate(() => ({ state: document.body.dataset.state, status: document.getElementById('status').textContent,
        output: window.playground.lastResult.output, input: window.playground.lastResult.summary && window.playground.lastResult.summary.input,
        note: document.getElementById('input-note').textContent }));
    };
    await page.selectOption('#example', '0');
    await page.fill('#script', reading);
    await page.fill('#seed', '5');
    await page.selectOption('#generator', 'chacha');
    await page.fill('#produce', '');
    // The box is collapsed on a fresh page; an example with records (run above) opened it.
    if (!(await page.isVisible('#input-text'))) await page.click('#input-box summary');
    await page.fill('#input-text', records);
    expect(/pasted records/.test(await page.textContent('#input-state')), await page.textContent('#input-state'));
    // LIN: the same bytes; the text of the actions: the same but for the input's name.
    const lin = await runPage('lin');
    const linWant = cliRead('deals.pbn', ['--format=lin']);
    expect(lin.state === 'done' && lin.output === linWant, `pasted PBN, LIN output differs:\n--- got\n${lin.output.slice(0, 400)}\n--- want\n${linWant.slice(0, 400)}`);
    const boards = [...lin.output.matchAll(/\|ah\|Board (\d+)\|/g)].map((m) => m[1]);
    expect(boards.length > 0 && boards.length < 8, `boards ${boards}`);
    expect(/of 8 input records/.test(lin.status) && /8 records read \(pbn\)/.test(lin.note), `status ${lin.status}; note ${lin.note}`);
    const text = await runPage('text');
    const textWant = cliRead('deals.pbn', []).replace('Input deals.pbn (pbn)', 'Input input data (pbn)');
    expect(mask(text.output) === mask(textWant), `pasted PBN, text output differs:\n--- got\n${text.output.slice(0, 400)}\n--- want\n${textWant.slice(0, 400)}`);
    await page.click('#tab-stats');
    const row = await page.$$eval('#stats tr', (r) => r.map((tr) => tr.textContent).find((t) => t.startsWith('Input records')));
    expect(row && row.includes('8 records read (pbn)'), `statistics row ${row}`);
    await page.click('#tab-output');
    // A file dropped on the page: its bytes as they are (DL52: binary), the pasted records replaced.
    const bytes = [...readFileSync(join(dir, 'deals.dl52'))];
    await page.evaluate((data) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(data)], 'deals.dl52', { type: 'application/octet-stream' }));
      const target = document.getElementById('output');
      for (const type of ['dragenter', 'dragover', 'drop']) {
        target.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
      }
    }, bytes);
    await page.waitForFunction(() => document.body.dataset.input !== undefined, null, { timeout: 5000 });
    const state = await page.evaluate(() => ({ text: document.getElementById('input-text').value, summary: document.getElementById('input-state').textContent }));
    expect(state.text === '' && /deals\.dl52, 416 bytes/.test(state.summary), JSON.stringify(state));
    const dropped = await runPage('lin');
    const droppedWant = cliRead('deals.dl52', ['--format=lin']);
    expect(dropped.output === droppedWant && dropped.input.format === 'dl52', `dropped DL52, LIN output differs:\n--- got\n${dropped.output.slice(0, 400)}\n--- want\n${droppedWant.slice(0, 400)}`);
    expect(dropped.output.split('\n').filter(Boolean).length === boards.length, 'the dropped file did not give the pasted records\' deals');
    // The Link holds the script and settings, not the records, and says so.
    await page.click('#link');
    const link = await page.evaluate(() => ({ hash: location.hash, status: document.getElementById('status').textContent }));
    const held = [...new URLSearchParams(link.hash.slice(1)).keys()];
    expect(new URLSearchParams(link.hash.slice(1)).get('script') === reading && !held.some((k) => /input/i.test(k)) && !link.hash.includes('Deal')
      && /Not the input records/.test(link.status), JSON.stringify(link).slice(0, 300));
    await page.evaluate(() => history.replaceState(null, '', location.pathname));
    await page.click('#input-clear');
    expect(/none: the deals are dealt/.test(await page.textContent('#input-state')), await page.textContent('#input-state'));
    await page.selectOption('#format', 'text');
    // The example with records: its boards' double-dummy tables answer tricks() and par, none solved.
    const example = await page.$$eval('#example option', (o) => o.findIndex((x) => x.textContent.startsWith('Reading deals')));
    await page.selectOption('#example', String(example));
    expect(await page.isVisible('#input-text') && (await page.inputValue('#input-text')).startsWith('[Event'), 'the example did not fill the Input records box');
    const read = await runPage('text');
    const summary = await page.evaluate(() => window.playground.lastResult.summary);
    expect(read.state === 'done' && summary.input.dd_read === 4 && summary.dd.tables === 0 && /North makes 3NT/.test(read.output),
      `example: ${read.status} ${JSON.stringify(summary)}`);
    await page.selectOption('#example', '0');
    expect((await page.inputValue('#input-text')) === '', 'another example left the example\'s records in the box');
  });

  await check('a study link reopens its script and seed; the lead table equals the native CLI\'s and sorts; intervals shown', async () => {
    const { EXAMPLES } = await import('../bindings/wasm/www/examples.js');
    const study = EXAMPLES.find((e) => e.title.startsWith('Opening lead'));
    const params = new URLSearchParams({ script: study.script, seed: '5', generator: 'chacha', dialect: 'v2', produce: '', format: 'text' });
    const linked = await browser.newPage();
    await linked.goto(`${base}#${params}`);
    await linked.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
    const opened = await linked.evaluate(() => ({ script: document.getElementById('script').value, seed: document.getElementById('seed').value }));
    expect(opened.script === study.script && opened.seed === '5', `the link opened ${JSON.stringify(opened).slice(0, 200)}`);
    await linked.click('#run');
    await linked.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.state) && !window.playground.running, null, { timeout: 120000 });
    expect(await linked.evaluate(() => document.body.dataset.state) === 'done', await linked.textContent('#status'));
    // The same table as the native CLI's JSON summary (seconds aside).
    const dir = mkdtempSync(join(tmpdir(), 'lead-'));
    writeFileSync(join(dir, 'lead.dlr'), study.script);
    const printed = execFileSync(join(top, 'target/release/dealer'), ['-s', '5', '--json-summary', join(dir, 'lead.dlr')], { encoding: 'utf8' });
    const want = JSON.parse(printed.split('\n').find((l) => l.startsWith('{"schema"')));
    const got = await linked.evaluate(() => window.playground.lastResult.summary);
    delete want.seconds;
    delete got.seconds;
    expect(JSON.stringify(got) === JSON.stringify(want), 'the browser\'s summary differs from the native CLI\'s');
    await linked.click('#tab-stats');
    const rows = () => linked.$$eval('table.leads tbody tr', (r) => r.map((tr) => [tr.querySelector('th').textContent,
      Number.parseFloat(tr.querySelector('td[data-key="beaten"]').textContent)]));
    const before = await rows();
    expect(before.length === want.leads[0].leads.length && before[0][0] === want.leads[0].leads[0].cards, `lead rows ${JSON.stringify(before)}`);
    await linked.click('table.leads button[data-sort="beaten"]');
    const sorted = await rows();
    const shares = sorted.map((r) => r[1]);
    expect(JSON.stringify(shares) === JSON.stringify([...shares].sort((a, b) => b - a)), `sorted by beaten: ${shares}`);
    expect(await linked.$eval('table.leads th[aria-sort="descending"]', (th) => th.textContent.startsWith('beaten')), 'the sorted column is not marked');
    const intervals = await linked.$$eval('table.intervals tbody tr', (r) => r.map((tr) => tr.textContent));
    expect(intervals.some((t) => t.startsWith("South's points") && / to /.test(t)), `intervals ${intervals}`);
    // The Link button: the address holds the script and the seed the run used.
    await linked.click('#link');
    const address = new URL(await linked.evaluate(() => location.href));
    const back = new URLSearchParams(address.hash.slice(1));
    expect(back.get('script') === study.script && back.get('seed') === '5', `the link ${address.hash.slice(0, 120)}`);
    await linked.screenshot({ path: join(artefacts, 'playground-leads.png'), fullPage: true });
    await linked.close();
  });

  await check('a page loaded once reloads and runs with the server stopped (service worker)', async () => {
    await page.evaluate(() => navigator.serviceWorker.ready);
    const stopped = new Promise((resolve) => server.once('exit', resolve));
    server.kill();
    await stopped;
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20000 });
    await page.selectOption('#example', '0');
    await page.click('#run');
    await page.waitForFunction(() => ['done', 'failed'].includes(document.body.dataset.state), null, { timeout: 20000 })
      .catch(() => {});
    const state = await page.evaluate(() => document.body.dataset.state);
    expect(state === 'done', `state ${state}, status: ${await page.textContent('#status')}`);
    const hands = await page.$$eval('.deal', (d) => d.length);
    expect(hands > 0, 'no hand diagrams after the offline run');
  });

  await check('a worker that cannot load fails its job instead of hanging', async () => {
    const message = await page.evaluate(async () => {
      const { DealerWorker } = await import('../pkg/worker-client.js');
      const w = new DealerWorker(new URL('no-such-worker.js', location.href), { loadTimeoutMs: 3000 });
      try {
        await w.check('produce 1\n');
        return 'answered';
      } catch (e) {
        return e.message;
      } finally {
        w.terminate();
      }
    });
    expect(/dealer worker/.test(message), `the job ended with: ${message}`);
  });
  console.log(`  (page ready in ${loadMs} ms; runs in ms: ${JSON.stringify(firstResult)})`);
  expect(errors.length === 0, errors.join('; '));
} catch (e) {
  fail(`the browser test: ${e.message}`);
} finally {
  if (browser) await browser.close();
  server.kill();
  rmSync(profile, { recursive: true, force: true });
}
finish();
