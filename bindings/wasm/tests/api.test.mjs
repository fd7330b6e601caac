// Unit tests of the JS API under node: `node --test bindings/wasm/tests/api.test.mjs`.
// Needs `make wasm` (bindings/wasm/pkg/gen) and, for the byte-identity tests, the native CLI
// (target/release/dealer) and ../shared/parity.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import {
  init, check, generate, handTypes, optionList, version, frequencies, frequencyTables2d, loadDoubleDummy, doubleDummyLoaded,
  needsDoubleDummy,
} from '../pkg/index.js';
import { CASES, DD_CASES, available, apiOptions, cli, dl52, mask, native, script, top } from './cases.mjs';

await init(readFileSync(join(top, 'bindings/wasm/pkg/gen/dealer_wasm_bg.wasm')));

test('version is the crate version', () => {
  assert.match(version(), /^\d+\.\d+\.\d+/);
});

test('check accepts a good script', () => {
  assert.deepEqual(check('condition hcp(north) >= 15\naction printall\n'), []);
});

test('check gives the line and column of an error', () => {
  const d = check('produce 3\ncondition hcp(north) >= 15 &&\n  shape(north, 5xxx) >\naction printall\n', { bbo: false });
  assert.equal(d.length, 1);
  assert.equal(d[0].severity, 'error');
  assert.equal(d[0].source, 'dealer');
  assert.equal(d[0].line, 4);
  assert.ok(d[0].column >= 1);
  assert.ok(d[0].message.length > 0);
});

test('check includes the BBO check', () => {
  // A DealerV2-only word: libdealer reads it in the v2 dialect, BBO's classic dealer does not.
  const d = check('condition hcp(north) >= 15\naction printall\nbktfreq\n', { dialect: 'v2' });
  assert.ok(d.some((x) => x.source === 'bbo'), JSON.stringify(d));
  const clean = check('condition hcp(north) >= 15\naction printall\n', { dialect: 'classic' });
  assert.deepEqual(clean.filter((x) => x.source === 'bbo' && x.severity === 'error'), []);
});

test('generate returns output, deals and statistics', () => {
  const r = generate('produce 3\ncondition hcp(north) >= 20\naction printoneline\n', { seed: 1, generator: 'chacha', deals: 3 });
  assert.equal(r.ok, true);
  assert.equal(r.error, null);
  assert.equal(r.statistics.produced, 3);
  assert.ok(r.statistics.generated >= 3);
  assert.equal(r.statistics.seed, '1');
  assert.equal(r.deals.length, 3);
  for (const d of r.deals) {
    for (const seat of ['N', 'E', 'S', 'W']) assert.equal(d[seat].replaceAll('.', '').length, 13);
  }
  assert.equal(r.output.split('\n').filter((l) => l.startsWith('n ')).length, 3);
  // The deals are the printed ones.
  assert.ok(r.output.includes(r.deals[0].N), r.output);
});

test('generate streams text to the callback', () => {
  let seen = '';
  const r = generate('produce 2\naction printoneline\n', { seed: 2 }, (stream, text) => {
    if (stream === 'output') seen += text;
  });
  assert.equal(seen, r.output);
});

test('a random seed is chosen and reported when none is given', () => {
  const a = generate('produce 1\naction printoneline\n', { deals: 0 });
  assert.match(a.statistics.seed, /^[1-9]\d*$/);
  const b = generate('produce 1\naction printoneline\n', { seed: a.statistics.seed, deals: 0 });
  assert.equal(mask(a.output), mask(b.output));
});

test('formats: lin and json', () => {
  const lin = generate('produce 2\naction printall\n', { seed: 3, format: 'lin', deals: 0 });
  assert.match(lin.output, /^qx\|/m);
  const json = generate('produce 2\naction printall\n', { seed: 3, format: 'json', deals: 0 });
  const lines = json.output.trim().split('\n');
  assert.equal(lines.length, 2);
  for (const l of lines) JSON.parse(l);
  assert.throws(() => optionList({ format: 'docx' }), /format/);
});

test('the browser clock: time_limit ends a run, Time needed is measured', { timeout: 30000 }, () => {
  // Nothing is ever produced (a hand holds at most 37 HCP), so only the 1 s limit ends the run; the
  // deals returned as objects are looked for again only up to what the run produced.
  const started = performance.now();
  const r = generate('generate 2000000000\nproduce 1\ncondition hcp(north) >= 38\naction printoneline\n',
    { seed: 1, options: { time_limit: '1' } });
  const wall = (performance.now() - started) / 1000;
  assert.equal(r.ok, true);
  assert.equal(r.statistics.produced, 0);
  assert.equal(r.deals.length, 0);
  assert.ok(r.statistics.generated > 0 && r.statistics.generated < 2000000000, String(r.statistics.generated));
  const needed = Number(r.output.match(/Time needed\s+([0-9.]+) sec/)[1]);
  assert.ok(needed >= 1 && needed < 3, `Time needed ${needed}`);
  assert.ok(wall < needed + 2, `the call took ${wall} s for a run of ${needed} s`);
  // A run that produces: the measured time is not zero.
  const p = generate('produce 2000\ncondition hcp(north) >= 20\naction average hcp(south)\n', { seed: 2 });
  assert.ok(Number(p.output.match(/Time needed\s+([0-9.]+) sec/)[1]) > 0, p.output);
  assert.equal(p.deals.length, 100);
});

test('double dummy: not available until DDS is loaded, which only a DD script needs', async () => {
  const dd = 'produce 1\ncondition tricks(north, notrump) >= 9\naction printoneline\n';
  assert.equal(doubleDummyLoaded(), false);
  const r = generate(dd, { seed: 1 });
  assert.equal(r.ok, false);
  assert.match(r.error.message, /not available.*loadDoubleDummy/);
  assert.equal(needsDoubleDummy(dd), true);
  assert.equal(needsDoubleDummy('produce 1\naction printoneline, average par(NS)\n'), true);
  assert.equal(needsDoubleDummy('predeal west SKJ74, HQ3, D9862, CJ75\nproduce 1\naction leads(west, notrump, 9)\n'), true);
  assert.equal(needsDoubleDummy('produce 1\naction printpbn\n', { options: { pbn_dd: 'true' } }), true);
  assert.equal(needsDoubleDummy('produce 1\naction printpbn\n'), false);
  assert.equal(needsDoubleDummy('condition hcp(north) >= 15\n'), false);
  assert.equal(needsDoubleDummy('condition hcp(north) >>> 15\n'), false);
  // A failed load leaves nothing behind: the next one starts afresh.
  await assert.rejects(loadDoubleDummy(new Uint8Array([0, 1, 2, 3])));
  assert.equal(doubleDummyLoaded(), false);
  await loadDoubleDummy();
  assert.equal(doubleDummyLoaded(), true);
  const solved = generate(dd, { seed: 1 });
  assert.equal(solved.error, null);
  assert.equal(solved.statistics.produced, 1);
});

for (const c of DD_CASES) {
  test(`double dummy byte-identical to the native CLI: ${c.file} (${c.generator}, seed ${c.seed}${c.flags ? ' ' + c.flags.join(' ') : ''})`, { skip: !available() && 'no ../shared or no target/release/dealer', timeout: 120000 }, async () => {
    await loadDoubleDummy();
    const want = native(c);
    const got = generate(script(c), apiOptions(c));
    assert.equal(got.error, null);
    assert.equal(mask(got.output), mask(want));
  });
}

test('leads: the opening-lead table and the statistics\' intervals equal the native CLI\'s', { skip: !existsSync(cli) && 'no target/release/dealer', timeout: 120000 }, async () => {
  await loadDoubleDummy();
  const lead = 'predeal west SKJ74, HQ3, D9862, CJ75\ncondition hcp(north) + hcp(south) >= 32\nproduce 6\n'
    + 'action leads(west, notrump, 12), average hcp(north)\n';
  const dir = mkdtempSync(join(tmpdir(), 'leads-'));
  const path = join(dir, 'lead.dlr');
  writeFileSync(path, lead);
  const printed = execFileSync(cli, ['-s', '4', '--json-summary', path], { encoding: 'utf8' });
  const want = JSON.parse(printed.split('\n').find((l) => l.startsWith('{"schema"')));
  const got = generate(lead, { seed: 4, options: { json_summary: 'true' } });
  assert.equal(got.error, null);
  delete want.seconds;
  delete got.summary.seconds;
  assert.deepEqual(got.summary, want);
  assert.equal(got.summary.leads[0].contract, '6NT');
  assert.equal(got.summary.dd.leads, 6);
  const text = (output) => mask(output.split('\n').filter((l) => !l.startsWith('{"schema"')).join('\n'));
  assert.equal(text(got.output), text(printed));
});

test('double dummy on 3 solver workers (worker_threads, SharedArrayBuffer) prints what the native CLI prints', { skip: !available() && 'no ../shared or no target/release/dealer', timeout: 300000 }, () => {
  // A fresh Node process: this one's DDS is loaded with one worker.
  const program = `
    import { readFileSync } from 'node:fs';
    import { init, generate, loadDoubleDummy, doubleDummyWorkers } from ${JSON.stringify(join(top, 'bindings/wasm/pkg/index.js'))};
    await init();
    await loadDoubleDummy(undefined, { workers: 3 });
    const cases = JSON.parse(process.argv[1]);
    const out = cases.map((c) => generate(readFileSync(c.path, 'utf8'), c.options));
    process.stdout.write(JSON.stringify({ workers: doubleDummyWorkers(), outputs: out.map((r) => r.error ? 'error: ' + r.error.message : r.output) }));
  `;
  const cases = DD_CASES.filter((c) => !c.flags).slice(0, 4);
  const input = cases.map((c) => ({ path: join(top, '../shared/parity', c.file), options: apiOptions(c) }));
  const got = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', program, JSON.stringify(input)], { encoding: 'utf8', maxBuffer: 1 << 26 }));
  assert.equal(got.workers, 3);
  cases.forEach((c, i) => assert.equal(mask(got.outputs[i]), mask(native(c)), c.file));
});

// 50 deals: a table costs about 0.4 s of CPU here (0.2 s in the reference); tests/dd_reference.sh
// compares the native build on 200 more.
test('double dummy: 50 random deals, all 20 results and par for each vulnerability, equal DDS 2.9', { skip: !existsSync(join(top, 'target/release/dd_reference')) && 'no target/release/dd_reference (make dds29-tools)', timeout: 600000 }, async () => {
  await loadDoubleDummy();
  const script = 'produce 50\naction printrpt(deal, trix(deal), par(NS,none), par(NS,ns), par(NS,ew), par(NS,both),\n' +
    '  parcontract(none), parcontract(ns), parcontract(ew), parcontract(both))\n';
  const ours = generate(script, { seed: 2026, deals: 0, options: { statistics: 'false' } });
  assert.equal(ours.error, null);
  assert.equal(ours.output.split('\n').filter(Boolean).length, 50);
  const theirs = execFileSync(join(top, 'target/release/dd_reference'), { input: ours.output, encoding: 'utf8' });
  assert.equal(ours.output, theirs);
});

test('a misspelled function: the peers\' message, and the explanation naming the nearest function', () => {
  const d = check('condition shpae(south, any 4333)\n', { bbo: false });
  assert.deepEqual(d, [{
    line: 1, column: 11, severity: 'error', source: 'dealer', message: 'unknown variable',
    explanation: "unknown function 'shpae' (did you mean 'shape'?)",
  }]);
  const r = generate('condition shpae(south, any 4333)\n', { seed: 1 });
  assert.equal(r.error.explanation, "unknown function 'shpae' (did you mean 'shape'?)");
  assert.equal(check('condition hcp(north) >>> 3\n', { bbo: false })[0].explanation, null);
});

test('a script error is returned with its position', () => {
  const r = generate('condition hcp(north) >>> 3\n', { seed: 1 });
  assert.equal(r.ok, false);
  assert.equal(r.error.line, 1);
});

for (const c of CASES) {
  test(`byte-identical to the native CLI: ${c.file} (${c.generator}, seed ${c.seed})`, { skip: !available() && 'no ../shared or no target/release/dealer' }, () => {
    const want = native(c);
    const got = generate(script(c), apiOptions(c));
    assert.equal(got.error, null);
    assert.equal(mask(got.output), mask(want));
  });
}

test('files and external programs are not available in the browser build', () => {
  const csv = generate('produce 1\naction printoneline\n', { seed: 1, options: { csv_file: 'out.csv' } });
  assert.equal(csv.ok, false);
  assert.match(csv.error.message, /not available in this build/);
  const opc = generate('produce 1\ncondition opc(NS) > 0\naction printoneline\n', { seed: 1, dialect: 'v2', options: { opc_program: 'dop' } });
  assert.equal(opc.ok, false, JSON.stringify(opc.error));
  assert.match(opc.error.message, /opc: .*not available in this build/);
});

test('progress: the core reports the meter on the diagnostics stream as it goes', () => {
  const meter = [];
  const r = generate('produce 200\naction printoneline\n', { seed: 1, progress: true, deals: 0 }, (stream, text) => {
    if (stream === 'diagnostics') meter.push(text);
  });
  assert.equal(r.ok, true);
  assert.ok(meter.some((t) => /50% complete/.test(t)), meter.join(''));
  // The output stream is the same with or without the meter (but for the time it took).
  assert.equal(mask(r.output), mask(generate('produce 200\naction printoneline\n', { seed: 1, deals: 0 }).output));
});

test('statistics include the frequency tables', () => {
  const r = generate('generate 2000\nproduce 2000\naction frequency "North HCP" (hcp(north), 0, 10), average hcp(north)\n', { seed: 4, deals: 0 });
  assert.equal(r.statistics.frequencies.length, 1);
  const f = r.statistics.frequencies[0];
  assert.equal(f.title, 'North HCP');
  assert.equal(f.rows[0][0], '0');
  assert.equal(f.rows.reduce((a, [, n]) => a + n, 0), 2000);
});

// A parsed 2-D table's lines as the core prints them (cells `%8d` in DealerV2, `%6d` in classic),
// so that a test can find each of them in the output.
function printedLines(t, width) {
  const cells = (ns) => ns.map((n) => ` ${String(n).padStart(width)}`).join('');
  return [
    `        Low${t.columns.slice(1, -1).map((c) => ` ${c.padStart(width)}`).join('')}${width === 8 ? '    High     Sum' : '   High    Sum'}`,
    ...t.rows.map((r) => `${r.label === 'Low' ? 'Low ' : r.label.padStart(4)}${cells([...r.counts, r.sum])}`),
    `Sum ${cells([...t.columnSums, t.total])}`,
  ];
}

// The sums of a parsed 2-D table agree with its counts.
function assertSums(t) {
  for (const r of t.rows) {
    assert.equal(r.counts.length, t.columns.length, r.label);
    assert.equal(r.counts.reduce((a, n) => a + n, 0), r.sum, `row ${r.label}`);
  }
  assert.deepEqual(t.columnSums, t.columns.map((_, i) => t.rows.reduce((a, r) => a + r.counts[i], 0)));
  assert.equal(t.total, t.rows.reduce((a, r) => a + r.sum, 0));
}

const SMALL_2D = 'produce 1000\naction frequency (hcp(north), 10, 12, controls(north), 1, 3)\n';
// What the CLI prints for SMALL_2D with `-s 1` (the counts are the same in both dialects).
const SMALL_2D_TABLE = {
  title: '',
  columns: ['Low', '1', '2', '3', 'High'],
  rows: [
    { label: 'Low', counts: [84, 125, 162, 82, 20], sum: 473 },
    { label: '10', counts: [0, 4, 31, 38, 27], sum: 100 },
    { label: '11', counts: [0, 2, 10, 42, 36], sum: 90 },
    { label: '12', counts: [0, 0, 3, 28, 54], sum: 85 },
    { label: 'High', counts: [0, 0, 1, 19, 232], sum: 252 },
  ],
  columnSums: [84, 131, 207, 209, 369],
  total: 1000,
};

for (const [dialect, width, head] of [['v2', 8, '\nDescription: :\n'], ['classic', 6, 'Frequency :\n']]) {
  test(`frequencyTables2d reads a 2-D table as printed (${dialect})`, () => {
    const r = generate(SMALL_2D, { seed: 1, dialect, deals: 0 });
    assert.equal(r.ok, true);
    assert.deepEqual(r.statistics.frequencies2d, [SMALL_2D_TABLE]);
    assert.deepEqual(frequencyTables2d(r.output), [SMALL_2D_TABLE]);
    assert.ok(r.output.includes(head + printedLines(SMALL_2D_TABLE, width).join('\n') + '\n'), r.output);
    assertSums(SMALL_2D_TABLE);
    // Not a 1-D table.
    assert.deepEqual(r.statistics.frequencies, []);
  });
}

test('frequencyTables2d reads DealerV2\'s freqEx2D_s139.dli as printed (native CLI and wasm)', { skip: !available() && 'no ../shared or no target/release/dealer' }, () => {
  const c = CASES.find((x) => x.file.endsWith('freqEx2D_s139.dli'));
  for (const output of [native(c), generate(script(c), apiOptions(c)).output]) {
    const tables = frequencyTables2d(output);
    assert.equal(tables.length, 1);
    const t = tables[0];
    assert.equal(t.title, 'Controls(across) Vs HCP(down)');
    assert.deepEqual(t.columns, ['Low', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'High']);
    assert.deepEqual(t.rows.map((r) => r.label), ['Low', ...Array.from({ length: 14 }, (_, i) => String(10 + i)), 'High']);
    assert.deepEqual(t.rows.find((r) => r.label === '12'), { label: '12', counts: [0, 2, 36, 120, 169, 81, 7, 0, 0, 0, 0], sum: 415 });
    assert.equal(t.total, 5000);
    assertSums(t);
    // Every number read is the printed one, in its place.
    assert.ok(output.includes(`Description: ${t.title}:\n${printedLines(t, 8).join('\n')}\n`), output);
    assert.deepEqual(frequencies(output), []);
  }
});

test('frequencyTables2d reads DealerV2\'s two-dimensional bktfreq', () => {
  const r = generate('produce 1000\naction bktfreq "bk2" (hcp(north), 10, 20, 5, controls(north), 0, 6, 2), bktfreq "bk1" (hcp(south), 10, 20, 5)\n', { seed: 1, dialect: 'v2', deals: 0 });
  assert.equal(r.ok, true, JSON.stringify(r.error));
  assert.equal(r.statistics.frequencies2d.length, 1);
  const t = r.statistics.frequencies2d[0];
  assert.equal(t.title, 'bk2');
  assert.deepEqual(t.columns, ['Low', '0', '2', '4', '6', 'High']);
  assert.deepEqual(t.rows.map((x) => x.label), ['Low', '10', '15', '20', 'High']);
  assert.equal(t.total, 1000);
  assertSums(t);
  assert.deepEqual(r.statistics.frequencies, [{ title: 'bk1', rows: [['Low', 465], ['10', 386], ['15', 140], ['20', 8], ['High', 1]] }]);
});

for (const dialect of ['v2', 'classic']) {
  test(`frequencies reads 1-D tables with Low and High rows (${dialect})`, () => {
    const r = generate('produce 1000\naction frequency "hcp" (hcp(south), 10, 12)\n', { seed: 1, dialect, deals: 0 });
    // What the CLI prints with -s 1 (DealerV2 adds percentages, which once hid its Low row's table).
    assert.deepEqual(r.statistics.frequencies, [{ title: 'hcp', rows: [['Low', 465], ['10', 91], ['11', 88], ['12', 70], ['High', 286]] }]);
    assert.match(r.output, dialect === 'v2' ? /^Low\t     465\t  46\.50\t  46\.50$/m : /^Low\t     465$/m);
  });
}

for (const dialect of ['v2', 'classic']) {
  test(`1-D frequency tables are the same with 2-D tables beside them (${dialect})`, () => {
    const oneD = ['frequency "South HCP" (hcp(south), 0, 12)', 'frequency (spades(east), 0, 6)'];
    const twoD = ['frequency "HCP by controls" (hcp(north), 10, 12, controls(north), 1, 3)',
      // One column: its header row `Low 9 High Sum` must not read as a 1-D row.
      'frequency "One column" (hcp(east), 10, 12, hcp(west), 9, 9)'];
    const run = (actions) => generate(`produce 500\naction ${actions.join(', ')}\n`, { seed: 9, dialect, deals: 0 });
    const alone = run(oneD);
    const mixed = run([twoD[0], oneD[0], twoD[1], oneD[1]]);
    assert.equal(alone.statistics.frequencies.length, 2);
    assert.deepEqual(mixed.statistics.frequencies, alone.statistics.frequencies);
    assert.deepEqual(frequencies(mixed.output), alone.statistics.frequencies);
    assert.deepEqual(mixed.statistics.frequencies2d.map((t) => t.title), ['HCP by controls', 'One column']);
    assert.deepEqual(mixed.statistics.frequencies2d[1].columns, ['Low', '9', 'High']);
    for (const t of mixed.statistics.frequencies2d) {
      assert.equal(t.total, 500);
      assertSums(t);
    }
    assert.deepEqual(alone.statistics.frequencies2d, []);
  });
}

const LADDER = readFileSync(join(top, 'examples/levelling/nt_ladder.dlr'), 'utf8');

test('handTypes: exact natural shares and the levelled script, as the native CLI writes it', () => {
  const l = handTypes(LADDER, { seed: 1 });
  assert.equal(l.ok, true, JSON.stringify(l.error));
  assert.equal(l.exact, true);
  assert.deepEqual(l.types.map((t) => t.label), ['12_14', '15_17', '18_19', '20_21', '22_24']);
  assert.ok(Math.abs(l.types[0].natural - 0.58267) < 5e-6, String(l.types[0].natural));
  assert.ok(l.types.every((t) => Math.abs(t.target - 0.2) < 1e-12));
  assert.equal(l.text, readFileSync(join(top, 'tests/levelling/nt_ladder.leveled.dlr'), 'utf8'));
  assert.match(l.summary, /counted exactly over all 635013559600 hands South can hold/);
});

test('handTypes: measured shares, and a refusal with its message', () => {
  const responses = readFileSync(join(top, 'examples/levelling/responses.dlr'), 'utf8');
  const l = handTypes(responses, { seed: 1 });
  assert.equal(l.ok, true, JSON.stringify(l.error));
  assert.equal(l.exact, false);
  assert.equal(l.text, readFileSync(join(top, 'tests/levelling/responses.leveled.dlr'), 'utf8'));
  const gap = handTypes('HandType_a = hcp(south) < 10\nHandType_b = hcp(south) > 12\ncondition hcp(south) > 3\n');
  assert.equal(gap.ok, false);
  assert.match(gap.error.message, /matched no hand type/);
});

test('generate with level: exact quotas, the hand types delivered, the deals of the output', () => {
  const r = generate(LADDER, { seed: 3, produce: 20, level: true, format: 'json', deals: 20 });
  assert.equal(r.ok, true, JSON.stringify(r.error));
  assert.deepEqual(r.handTypes.map((t) => t.produced), [4, 4, 4, 4, 4]);
  const printed = r.output.split('\n').filter((l) => l.includes('"type":"deal"')).map((l) => JSON.parse(l).deal);
  assert.deepEqual(r.deals.map((d) => `N:${d.N} ${d.E} ${d.S} ${d.W}`), printed);
});

test('generate with level prints what the native CLI prints', { skip: !available() && 'no target/release/dealer' }, () => {
  const r = generate(LADDER, { seed: 5, produce: 40, level: true, format: 'text', deals: 0, inputName: 'nt_ladder.dlr' });
  const dir = mkdtempSync(join(tmpdir(), 'ladder-'));
  const file = join(dir, 'nt_ladder.dlr');
  execFileSync('cp', [join(top, 'examples/levelling/nt_ladder.dlr'), file]);
  const cli = execFileSync(join(top, 'target/release/dealer'), ['-s', '5', '-p', '40', '--level', 'nt_ladder.dlr'], { cwd: dir }).toString();
  assert.equal(mask(r.output), mask(cli));
});

// Reading deals (`input`): the boards of a PBN text as [{board, deal}] (`deal`: the [Deal] tag's
// value, `N:` first).
function pbnBoards(text) {
  return text.split(/\r?\n\r?\n/).filter((game) => game.includes('[Deal ')).map((game) => ({
    board: game.match(/^\[Board "([^"]*)"\]/m)[1],
    deal: game.match(/^\[Deal "([^"]*)"\]/m)[1],
  }));
}

// The high-card points of the first hand of a PBN deal (`N:hand hand hand hand`).
function northHcp(deal) {
  const points = { A: 4, K: 3, Q: 2, J: 1 };
  return [...deal.slice(2).split(' ')[0]].reduce((n, c) => n + (points[c] || 0), 0);
}

// A deal of `generate`'s deal objects as PBN's [Deal] tag writes it.
const pbnDeal = (d) => `N:${d.N} ${d.E} ${d.S} ${d.W}`;

const ALL = 'action printall\n';

test('input: PBN records read through a script keep their deals and board numbers', () => {
  const source = generate('produce 8\naction printall\n', { seed: 7, format: 'pbn', deals: 0 });
  const boards = pbnBoards(source.output);
  assert.equal(boards.length, 8);
  const wanted = boards.filter((b) => northHcp(b.deal) >= 10);
  assert.ok(wanted.length > 0 && wanted.length < 8, `${wanted.length} of 8 boards pass`);
  const script = 'condition hcp(north) >= 10\naction printall\n';
  const r = generate(script, { format: 'pbn', input: source.output, deals: 100 });
  assert.equal(r.error, null);
  assert.deepEqual(pbnBoards(r.output), wanted);
  assert.deepEqual(r.deals.map(pbnDeal), wanted.map((b) => b.deal));
  assert.equal(r.statistics.generated, 8);
  assert.equal(r.statistics.produced, wanted.length);
  assert.deepEqual(r.summary.input, {
    name: 'input data', format: 'pbn', records_read: 8, malformed_skipped: 0, off_predeal_skipped: 0, dd_read: 0, dd_verified: 0,
  });
  // The same records as bytes, and with their format named: the same run.
  for (const more of [{ input: new TextEncoder().encode(source.output) }, { input: source.output, inputFormat: 'pbn' }]) {
    const again = generate(script, { format: 'pbn', deals: 0, ...more });
    assert.equal(again.error, null);
    assert.equal(again.output, r.output);
  }
  // Other outputs keep the board numbers too: LIN's `ah|Board N|`, JSON's "board".
  const lin = generate(script, { format: 'lin', input: source.output, deals: 0 });
  assert.deepEqual([...lin.output.matchAll(/\|ah\|Board (\d+)\|/g)].map((m) => m[1]), wanted.map((b) => b.board));
  const json = generate(script, { format: 'json', input: source.output, deals: 0 });
  assert.deepEqual(json.output.trim().split('\n').map((l) => String(JSON.parse(l).board)), wanted.map((b) => b.board));
  // A limit reads no further: produce 2 takes the first two that pass.
  const two = generate(script, { format: 'pbn', input: source.output, produce: 2, deals: 0 });
  assert.deepEqual(pbnBoards(two.output), wanted.slice(0, 2));
  // A predeal the deals contradict: passed over and counted.
  const north = wanted[0].deal.slice(2).split(' ')[0].split('.');
  const predeal = `predeal north S${north[0] || '-'}, H${north[1] || '-'}, D${north[2] || '-'}, C${north[3] || '-'}\n`;
  const held = generate(predeal + ALL, { format: 'pbn', input: source.output, deals: 0 });
  assert.equal(held.error, null);
  assert.deepEqual(pbnBoards(held.output), [wanted[0]]);
  assert.equal(held.summary.input.off_predeal_skipped, 7);
});

test('input: the records print what the native CLI prints reading the same file', { skip: !existsSync(cli) && 'no target/release/dealer' }, () => {
  const source = generate('produce 6\ncondition hcp(south) >= 8\naction printall\n', { seed: 11, format: 'pbn', deals: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'input-'));
  writeFileSync(join(dir, 'deals.pbn'), source.output);
  writeFileSync(join(dir, 'read.dlr'), 'condition shape(north, any 4333 + any 4432 + any 5332) || hcp(north) >= 12\naction printall\n');
  for (const [format, flag] of [['pbn', '--format=pbn'], ['lin', '--format=lin'], ['json', '--format=jsonl']]) {
    const want = execFileSync(cli, ['--input=deals.pbn', flag, 'read.dlr'], { cwd: dir, encoding: 'utf8' });
    const got = generate(readFileSync(join(dir, 'read.dlr'), 'utf8'), { format, input: readFileSync(join(dir, 'deals.pbn')), deals: 0 });
    assert.equal(got.error, null);
    assert.ok(want.length > 0);
    assert.equal(got.output, want, format);
  }
});

test('input: DL52 bytes (a Uint8Array) are found by their first bytes', () => {
  const source = generate('produce 5\naction printall\n', { seed: 3, format: 'pbn', deals: 0 });
  const deals = pbnBoards(source.output).map((b) => b.deal);
  // A record without board data prints as a dealt deal does (its [Event] names the seed).
  const r = generate(ALL, { seed: 1, format: 'pbn', input: dl52(deals), deals: 5 });
  assert.equal(r.error, null);
  assert.equal(r.summary.input.format, 'dl52');
  assert.deepEqual(r.deals.map(pbnDeal), deals);
  assert.deepEqual(pbnBoards(r.output).map((b) => b.deal), deals);
  // An ArrayBuffer is read as well; and the format may be named.
  const named = generate(ALL, { seed: 1, format: 'pbn', input: dl52(deals).buffer, inputFormat: 'dl52', deals: 0 });
  assert.equal(named.output, r.output);
});

test('input: a malformed record stops the run, or (inputErrors skip) is skipped and counted', () => {
  const good = generate('produce 3\naction printall\n', { seed: 5, format: 'pbn', deals: 0 }).output;
  const games = good.split('\n\n').filter((g) => g.trim());
  const broken = [games[0], games[1].replace(/\[Deal "N:[^"]*"\]/, '[Deal "N:AKQ.xxx"]'), games[2]].join('\n\n') + '\n';
  const stop = generate(ALL, { format: 'pbn', input: broken });
  assert.equal(stop.ok, false);
  assert.match(stop.error.message, /^input data:\d+:\d+: /);
  const skip = generate(ALL, { format: 'pbn', input: broken, inputErrors: 'skip' });
  assert.equal(skip.error, null);
  assert.equal(pbnBoards(skip.output).length, 2);
  assert.equal(skip.summary.input.malformed_skipped, 1);
  assert.equal(skip.summary.input.records_read, 3);
  assert.match(skip.diagnostics, /skipped a malformed record: input data:/);
  // Bad option values are refused before anything runs.
  assert.throws(() => generate(ALL, { input: good, inputFormat: 'docx' }), /inputFormat/);
  assert.throws(() => generate(ALL, { input: good, inputErrors: 'ignore' }), /inputErrors/);
  assert.throws(() => generate(ALL, { input: 42 }), /input: expected a string or a Uint8Array/);
  const bad = generate(ALL, { input: good, verifyDd: -1 });
  assert.equal(bad.ok, false);
  assert.match(bad.error.message, /verify_dd/);
  // Records in another format than the one named are malformed.
  const lin = generate(ALL, { input: good, inputFormat: 'lin' });
  assert.equal(lin.ok, false);
});

test('input with pbn_dd: the records\' tables answer without solving, the same bytes as solving', { timeout: 120000 }, async () => {
  await loadDoubleDummy();
  const script = 'produce 3\ncondition hcp(north) + hcp(south) >= 22\naction printall\n';
  const solved = generate(script, { seed: 3, format: 'pbn', options: { pbn_dd: 'true' }, deals: 0 });
  assert.equal(solved.error, null);
  assert.equal(solved.summary.dd.tables, 3);
  assert.equal((solved.output.match(/\[OptimumResultTable /g) || []).length, 3);
  const withDd = { format: 'pbn', input: solved.output, options: { pbn_dd: 'true' }, deals: 0 };
  // Read back: the records' tables and par are printed again, none solved.
  const read = generate(ALL, withDd);
  assert.equal(read.error, null);
  assert.equal(read.summary.dd.tables, 0);
  assert.equal(read.summary.input.dd_read, 3);
  assert.equal(read.output, solved.output);
  // The same records without their tables: solved again, the same bytes.
  const bare = generate(ALL, { format: 'pbn', input: solved.output, deals: 0 }).output;
  assert.equal(bare.includes('OptimumResultTable'), false);
  const again = generate(ALL, { ...withDd, input: bare });
  assert.equal(again.error, null);
  assert.equal(again.summary.dd.tables, 3);
  assert.equal(again.summary.input.dd_read, 0);
  assert.equal(again.output, read.output);
  // dds() in the script reads the tables too: the same averages with and without them.
  const tricks = 'action average "nt" tricks(north, notrump), average "par" par(NS)\n';
  const fromTables = generate(tricks, { input: solved.output, deals: 0 });
  const fromSolver = generate(tricks, { input: bare, deals: 0 });
  assert.equal(fromTables.summary.dd.tables, 0);
  assert.equal(fromSolver.summary.dd.tables, 3);
  assert.deepEqual(fromTables.summary.statistics, fromSolver.summary.statistics);
  // verifyDd solves the first tables to check them; one that disagrees stops the run.
  const verified = generate(ALL, { ...withDd, verifyDd: 1 });
  assert.equal(verified.error, null);
  assert.equal(verified.summary.input.dd_verified, 1);
  assert.equal(verified.summary.input.dd_read, 2);
  assert.equal(verified.summary.dd.tables, 1);
  const tampered = solved.output.replace(/^N NT +(\d+)$/m, (_, n) => `N NT ${String((Number(n) + 1) % 14).padStart(2)}`);
  const wrong = generate(ALL, { ...withDd, input: tampered, verifyDd: 3 });
  assert.equal(wrong.ok, false);
  assert.match(wrong.error.message, /^input data:\d+: verify_dd: the double-dummy table disagrees with the solver/);
});
