/**
 * runtimes/host/wasm-snapshot.ts on a hand-assembled module whose state hides in a global it does
 * not export (as zeroperl's asyncify state does): the snapshot must put back the memory and that
 * global, and refuse an instance whose memory grew (or, within a caller's limit, zero the growth:
 * php-wasm's case); the rewrite of the memory's initial size; and finding the address a getter
 * reads (zeroperl's interpreter pointer).
 */
import { expect, it } from 'vitest';
import { addressReadBy, exposeMutableGlobals, InstanceSnapshot, withInitialMemory } from '../../runtimes/host/wasm-snapshot';

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

it('within a growth limit, zeroes the grown memory and puts the rest back', async () => {
  const e = await instantiate(exposeMutableGlobals(MODULE.slice().buffer));
  const snapshot = new InstanceSnapshot(e);
  e.bump();
  e.mem.grow(2);
  new Uint8Array(e.mem.buffer).fill(0xab, 65536);
  expect(snapshot.restore(e, 65536)).toBe(false); // grew by two pages, one allowed: untouched
  expect(new Uint8Array(e.mem.buffer)[3 * 65536 - 1]).toBe(0xab);
  expect(snapshot.restore(e, 2 * 65536)).toBe(true);
  expect([e.get(), firstWord(e)]).toEqual([7, 0]);
  expect(e.mem.buffer.byteLength).toBe(3 * 65536);
  expect(new Uint8Array(e.mem.buffer).subarray(65536).every((b) => b === 0)).toBe(true);
});

/** MODULE with its memory section replaced (`section`: id, size, count, flags, limits). */
const withMemorySection = (section: number[]) => {
  const at = MODULE.indexOf(0x05, 8 + 10 + 5); // after the type and function sections
  return new Uint8Array([...MODULE.subarray(0, at), ...section, ...MODULE.subarray(at + 5)]).buffer;
};

it('sets the initial memory size, keeping the maximum and the rest of the module', async () => {
  const bytes = withMemorySection([0x05, 0x04, 0x01, 0x01, 0x03, 0x05]); // 3 pages, at most 5
  expect((await instantiate(bytes)).mem.buffer.byteLength).toBe(3 * 65536);
  const smaller = await instantiate(withInitialMemory(bytes, 2));
  expect(smaller.mem.buffer.byteLength).toBe(2 * 65536);
  smaller.bump();
  expect([smaller.get(), firstWord(smaller)]).toEqual([8, 8]);
  expect(() => smaller.mem.grow(4)).toThrow(); // the maximum (5 pages) is kept
  expect(() => withInitialMemory(bytes, 4)).toThrow(/already starts at 3 pages/);
});

// (module (import "env" "f" (func)) (memory (export "mem") 1)
//   (func (export "flag") (result i32) (i32.load offset=24 (i32.const 1000)))
//   (func (export "other") (result i32) (i32.const 5)))
const GETTER = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x08, 0x02, 0x60, 0x00, 0x01, 0x7f, 0x60, 0x00, 0x00, // types: () -> i32, () -> ()
  0x02, 0x09, 0x01, 0x03, 0x65, 0x6e, 0x76, 0x01, 0x66, 0x00, 0x01, // import env.f (shifts the indices)
  0x03, 0x03, 0x02, 0x00, 0x00, // functions
  0x05, 0x03, 0x01, 0x00, 0x01, // memory: 1 page
  0x07, 0x16, 0x03, 0x03, 0x6d, 0x65, 0x6d, 0x02, 0x00, 0x04, 0x66, 0x6c, 0x61, 0x67, 0x00, 0x01, 0x05, 0x6f, 0x74, 0x68, 0x65, 0x72, 0x00, 0x02,
  0x0a, 0x0f, 0x02,
  0x08, 0x00, 0x41, 0xe8, 0x07, 0x28, 0x02, 0x18, 0x0b,
  0x04, 0x00, 0x41, 0x05, 0x0b,
]);

it('finds the address a getter loads from (constant plus offset), and refuses other code', async () => {
  const address = addressReadBy(GETTER.slice().buffer, 'flag');
  expect(address).toBe(1024);
  // The instance agrees: what is written there is what the getter returns.
  const { exports } = await WebAssembly.instantiate(await WebAssembly.compile(GETTER.slice().buffer), { env: { f: () => {} } });
  const e = exports as unknown as { mem: WebAssembly.Memory; flag(): number };
  new DataView(e.mem.buffer).setUint32(address, 0xbeef, true);
  expect(e.flag()).toBe(0xbeef);
  expect(() => addressReadBy(GETTER.slice().buffer, 'other')).toThrow(/does not load an i32/);
  expect(() => addressReadBy(GETTER.slice().buffer, 'missing')).toThrow(/no exported function missing/);
});
