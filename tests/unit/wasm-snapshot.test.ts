/**
 * runtimes/host/wasm-snapshot.ts on a hand-assembled module whose state hides in a global it does
 * not export (as zeroperl's asyncify state does): the snapshot must put back the memory and that
 * global, and refuse an instance whose memory grew.
 */
import { expect, it } from 'vitest';
import { exposeMutableGlobals, InstanceSnapshot } from '../../runtimes/host/wasm-snapshot';

// (module (memory (export "mem") 1) (global $g (mut i32) (i32.const 7))
//   (func (export "bump") global $g += 1; mem[0] = $g)  (func (export "get") (result i32) $g))
const MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x08, 0x02, 0x60, 0x00, 0x00, 0x60, 0x00, 0x01, 0x7f, // types: () -> (), () -> i32
  0x03, 0x03, 0x02, 0x00, 0x01, // functions
  0x05, 0x03, 0x01, 0x00, 0x01, // memory: 1 page
  0x06, 0x06, 0x01, 0x7f, 0x01, 0x41, 0x07, 0x0b, // global: mutable i32 = 7
  0x07, 0x14, 0x03, 0x03, 0x6d, 0x65, 0x6d, 0x02, 0x00, 0x04, 0x62, 0x75, 0x6d, 0x70, 0x00, 0x00, 0x03, 0x67, 0x65, 0x74, 0x00, 0x01,
  0x0a, 0x17, 0x02,
  0x10, 0x00, 0x23, 0x00, 0x41, 0x01, 0x6a, 0x24, 0x00, 0x41, 0x00, 0x23, 0x00, 0x36, 0x02, 0x00, 0x0b,
  0x04, 0x00, 0x23, 0x00, 0x0b,
]);

interface Exports {
  mem: WebAssembly.Memory;
  bump(): void;
  get(): number;
}

const instantiate = async (bytes: ArrayBuffer) => (await WebAssembly.instantiate(await WebAssembly.compile(bytes))).exports as unknown as Exports & WebAssembly.Exports;
const firstWord = (e: Exports) => new Uint32Array(e.mem.buffer)[0];

it('exports the hidden mutable global, and puts memory and global back', async () => {
  const bytes = exposeMutableGlobals(MODULE.slice().buffer);
  expect(WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((e) => e.name)).toEqual(['mem', 'bump', 'get', 'benchtop_global_0']);
  const e = await instantiate(bytes);
  e.bump();
  const snapshot = new InstanceSnapshot(e);
  e.bump();
  e.bump();
  expect([e.get(), firstWord(e)]).toEqual([10, 10]);
  expect(snapshot.restore(e)).toBe(true);
  expect([e.get(), firstWord(e)]).toEqual([8, 8]);
  // A new instance of the same module takes the snapshot too.
  const other = await instantiate(bytes);
  expect(snapshot.restore(other)).toBe(true);
  expect([other.get(), firstWord(other)]).toEqual([8, 8]);
});

it('without the rewrite the hidden global would survive (what the rewrite is for)', async () => {
  const e = await instantiate(MODULE.slice().buffer);
  const snapshot = new InstanceSnapshot(e);
  e.bump();
  snapshot.restore(e);
  expect([e.get(), firstWord(e)]).toEqual([8, 0]);
});

it('refuses an instance whose memory grew, changing nothing', async () => {
  const e = await instantiate(exposeMutableGlobals(MODULE.slice().buffer));
  const snapshot = new InstanceSnapshot(e);
  e.bump();
  e.mem.grow(1);
  expect(snapshot.restore(e)).toBe(false);
  expect([e.get(), firstWord(e)]).toEqual([8, 8]);
});

it('leaves a module with nothing hidden as it is', () => {
  const plain = new Uint8Array(MODULE.slice(0, 8 + 10 + 5 + 5)).buffer; // types, functions, memory only: no globals
  expect(exposeMutableGlobals(plain)).toBe(plain);
});
