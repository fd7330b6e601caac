// The parity scripts the wasm tests run in both the native CLI and the WebAssembly build:
// {file under ../shared/parity, generator, seed, produce, flags: extra CLI flags, options: the same
// as generate()'s options}.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const top = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const shared = resolve(top, '../shared/parity');
export const cli = join(top, 'target/release/dealer');

export const CASES = [
  // DealerV2's generator (drand48) on DealerV2 regression scripts.
  { file: 'dealerv2/cases/2nt_Demo_s11.dli', generator: 'drand48', seed: 11 },
  { file: 'dealerv2/cases/BktFreq_s19.dli', generator: 'drand48', seed: 19 },
  { file: 'dealerv2/cases/freqEx2D_s139.dli', generator: 'drand48', seed: 139 },
  { file: 'dealerv2/cases/Bias_0S7D_s281.dli', generator: 'drand48', seed: 281 },
  { file: 'dealerv2/cases/pbn_s179.dli', generator: 'drand48', seed: 179 },
  { file: 'dealerv2/cases/ShapeFD_syntax_s223.dli', generator: 'drand48', seed: 223 },
  // Classic dealer's generator (glibc) on BBO-style scripts.
  { file: 'pbs/scripts/1N_with_Singleton.dlr', generator: 'glibc', seed: 11, produce: 20 },
  { file: 'pbs/scripts/Flannery.dlr', generator: 'glibc', seed: 11, produce: 20 },
  { file: 'pbs/scripts/Multi_2D.dlr', generator: 'glibc', seed: 11, produce: 20 },
  // libdealer's own generator (chacha).
  { file: 'pbs/scripts/Gazzilli.dlr', generator: 'chacha', seed: 5, produce: 20 },
  { file: 'dealerv2/cases/freqEx_s137.dli', generator: 'chacha', seed: 137 },
];

// Double dummy, solved by DDS's own module (loadDoubleDummy): DealerV2's regression scripts that
// use dds/tricks, par, parcontract, trix and evalcontract with their generator and seed, some
// with the other two generators, and BBO scripts with PBN and JSON Lines records carrying the
// double-dummy tags (`flags` for the CLI, `options` for generate).
export const DD_CASES = [
  { file: 'dealerv2/cases/ddsNTpar_s67.dli', generator: 'drand48', seed: 67 },
  { file: 'dealerv2/cases/DDS_NT_s59.dli', generator: 'drand48', seed: 59 },
  { file: 'dealerv2/cases/DDSmode1_s61.dli', generator: 'drand48', seed: 61 },
  { file: 'dealerv2/cases/ddsTrixCond_s73.dli', generator: 'drand48', seed: 73 },
  { file: 'dealerv2/cases/EvalContract_n_dds_s101.dli', generator: 'drand48', seed: 101 },
  { file: 'dealerv2/cases/test_rpts_s241.dli', generator: 'drand48', seed: 241 },
  { file: 'dealerv2/cases/csvTrixDeal_s43.dli', generator: 'drand48', seed: 43 },
  { file: 'dealerv2/cases/ddsParContract_s317.dli', generator: 'drand48', seed: 317, produce: 3 },
  { file: 'dealerv2/cases/ddsNTpar_s67.dli', generator: 'chacha', seed: 3 },
  { file: 'dealerv2/cases/ddsTrixCond_s73.dli', generator: 'chacha', seed: 9 },
  { file: 'dealerv2/cases/EvalContract_n_dds_s101.dli', generator: 'chacha', seed: 17 },
  {
    file: 'pbs/scripts/Flannery.dlr', generator: 'chacha', seed: 7, produce: 4,
    flags: ['--format=pbn', '--pbn-dd'], options: { format: 'pbn', pbn_dd: 'true' },
  },
  {
    file: 'pbs/scripts/Multi_2D.dlr', generator: 'glibc', seed: 11, produce: 4,
    flags: ['--format=jsonl', '--json-dd'], options: { format: 'jsonl', json_dd: 'true' },
  },
  {
    file: 'pbs/scripts/1N_with_Singleton.dlr', generator: 'drand48', seed: 5, produce: 3,
    flags: ['--format=pbn', '--pbn-dd'], options: { format: 'pbn', pbn_dd: 'true' },
  },
];

/** Whether the parity scripts and the native CLI are here. */
export function available() {
  return existsSync(shared) && existsSync(cli);
}

/** The lines that differ by nature between runs: the time taken and PBN's date. */
export function mask(text) {
  return text
    .split('\n')
    .filter((l) => !l.startsWith('Time needed') && !l.startsWith('[Date '))
    .join('\n');
}

/** The CLI's arguments for a case. */
export function cliArgs(c) {
  const args = [`--rng=${c.generator}`, '-s', String(c.seed)];
  if (c.produce) args.push('-p', String(c.produce));
  args.push(...(c.flags || []));
  return args;
}

/** The generate() options for a case. */
export function apiOptions(c) {
  return {
    generator: c.generator, seed: c.seed, produce: c.produce, deals: 0, inputName: c.file.split('/').pop(), options: c.options,
  };
}

/** What the native CLI prints for a case. */
export function native(c) {
  const path = join(shared, c.file);
  return execFileSync(cli, [...cliArgs(c), path.split('/').pop()], { cwd: dirname(path), encoding: 'utf8', maxBuffer: 1 << 26 });
}

/** A case's script text. */
export function script(c) {
  return readFileSync(join(shared, c.file), 'utf8');
}

/**
 * DealerV2's 52-byte deals (DL52, `-l`) of PBN deals (`N:hand hand hand hand`, North first):
 * North's, East's, South's and West's cards, each byte (suit << 4) | rank (suit 0 clubs .. 3
 * spades, rank 0 deuce .. 12 ace). For the tests of reading deals (`input`).
 */
export function dl52(deals) {
  const ranks = '23456789TJQKA';
  const bytes = [];
  for (const deal of deals) {
    for (const hand of deal.slice(2).split(' ')) {
      hand.split('.').forEach((cards, i) => { for (const c of cards) bytes.push(((3 - i) << 4) | ranks.indexOf(c)); });
    }
  }
  return new Uint8Array(bytes);
}
