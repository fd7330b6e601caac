// The tally of a Node test script: `check(name, fn)` runs one named check and prints
// `PASS name` or `FAIL name: why`; `fail(why)` counts a failure outside a check; `finish()`
// prints `N passed, M failed` and ends the process with status 1 when any check failed.
// `expect(condition, what)` fails the check it is in with `what`.

let passed = 0;
let failed = 0;

export async function check(name, fn) {
  try {
    await fn();
    console.log(`PASS ${name}`);
    passed++;
  } catch (e) {
    console.log(`FAIL ${name}: ${e.message.split('\n').slice(0, 8).join('\n')}`);
    failed++;
  }
}

export function expect(cond, what) {
  if (!cond) throw new Error(what);
}

export function fail(why) {
  console.log(`FAIL ${why}`);
  failed++;
}

export function finish() {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}
