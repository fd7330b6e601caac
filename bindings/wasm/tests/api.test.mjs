// Unit tests of the JS API under node: `node --test bindings/wasm/tests/api.test.mjs`.
// Needs `make wasm` (bindings/wasm/pkg/gen) and, for the byte-identity tests, the native CLI
// (target/release/dealer) and ../shared/parity.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { init, check, generate, optionList, version } from '../pkg/index.js';
import { CASES, available, apiOptions, mask, native, script, top } from './cases.mjs';

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

test('double dummy is not available in the browser build', () => {
  const r = generate('produce 1\ncondition tricks(north, notrump) >= 9\naction printoneline\n', { seed: 1 });
  assert.equal(r.ok, false);
  assert.match(r.error.message, /not available in this build/);
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
  // The output stream is the same with or without the meter.
  assert.equal(r.output, generate('produce 200\naction printoneline\n', { seed: 1, deals: 0 }).output);
});

test('statistics include the frequency tables', () => {
  const r = generate('generate 2000\nproduce 2000\naction frequency "North HCP" (hcp(north), 0, 10), average hcp(north)\n', { seed: 4, deals: 0 });
  assert.equal(r.statistics.frequencies.length, 1);
  const f = r.statistics.frequencies[0];
  assert.equal(f.title, 'North HCP');
  assert.equal(f.rows[0][0], '0');
  assert.equal(f.rows.reduce((a, [, n]) => a + n, 0), 2000);
});
