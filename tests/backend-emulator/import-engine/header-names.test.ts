/**
 * How a header cell is read as a column name (import-engine/columns.ts normaliseHeader): what it
 * forgives, and that a cell of spaces answers at once. The old regular expressions took n^2 steps
 * over a run of spaces (3 s at 40,000; a 400,000-space header cell kept an import worker busy until
 * its job was deleted). The long cells run inside `vm`'s execution time limit, so that code that
 * backtracks fails here with a timeout instead of hanging the test file.
 */
import * as vm from 'vm';
import { normaliseHeader } from '../../../backend-emulator/import-engine/columns';

/** Runs `fn`, throwing if it computes for longer than `ms` (vm's limit interrupts synchronous work). */
function within<T>(ms: number, fn: () => T): T {
  return vm.runInNewContext('run()', { run: fn }, { timeout: ms }) as T;
}

test.each([
  ['MachineId', 'machineid'],
  ['  PrimaryIPAddress (Optional) ', 'primaryipaddress'],
  ['PrimaryIPAddress(optional)', 'primaryipaddress'],
  ['PrimaryIPAddress ( OPTIONAL )', 'primaryipaddress'],
  ['\uFEFFMachineId', 'machineid'],
  ['MemoryGiB*', 'memorygib'],
  ['MemoryGiB *', 'memorygib'],
  ['MemoryGiB (optional)*', 'memorygib (optional)'], // the star is taken off last, as before
  ['(optional)', ''],
  ['optional)', 'optional)'],
  ['Name (optionally)', 'name (optionally)'],
  ['Name optional)', 'name optional)'],
  ['Name (optional', 'name (optional'],
  ['Name\t(optional)\n', 'name'],
  ['**', '*'],
  ['', ''],
])('%j -> %j', (header, name) => {
  expect(normaliseHeader(header)).toBe(name);
});

test.each([
  ['spaces between two letters', `x${' '.repeat(1_000_000)}x`, `x${' '.repeat(1_000_000)}x`],
  ['spaces before a parenthesis', `x${' '.repeat(1_000_000)}(x`, `x${' '.repeat(1_000_000)}(x`],
  ['spaces before a star', `x${' '.repeat(1_000_000)}*`, 'x'],
  ['spaces inside the suffix', `x(${' '.repeat(1_000_000)}optional${' '.repeat(1_000_000)})`, 'x'],
])('a million %s: answered at once', (_what, header, name) => {
  expect(within(20_000, () => normaliseHeader(header))).toBe(name);
});
