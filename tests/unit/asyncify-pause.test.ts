/**
 * runtimes/host/asyncify-pause.ts on zeroperl's real module (the one asyncify-instrumented module
 * benchtop pauses; runtime-perl.test.ts runs programs through the pause): it refuses a module that
 * is not instrumented, and a resume with nothing stopped; a call that returns normally is not taken
 * for a stop.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';
import { AsyncifyPause } from '../../runtimes/host/asyncify-pause';
import { exposeMutableGlobals } from '../../runtimes/host/wasm-snapshot';

const require = createRequire(import.meta.url);
const bytes = readFileSync(require.resolve('@6over3/zeroperl-ts/zeroperl.wasm'));

// Imports that do nothing: only the exports that need no WASI call are used here.
const stubs = (module: WebAssembly.Module) => {
  const imports: Record<string, Record<string, () => number>> = {};
  for (const entry of WebAssembly.Module.imports(module)) (imports[entry.module] ??= {})[entry.name] = () => 0;
  return imports;
};

it('stops nothing it did not unwind, and resumes nothing it did not stop', async () => {
  const module = await WebAssembly.compile(exposeMutableGlobals(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer));
  const { exports } = await WebAssembly.instantiate(module, stubs(module));
  const pause = new AsyncifyPause(exports, 1024);
  // A call that returned on its own (asyncify's state is normal) is not a stop.
  expect((exports.zeroperl_is_initialized as () => number)()).toBe(0);
  expect(pause.stopped(exports)).toBe(false);
  expect(() => pause.rewind(exports)).toThrow(/never stopped/);
  // In an import, a call that is not coming back from a stop is left alone.
  expect(pause.arrived(exports)).toBe(false);
});

it('refuses a module without asyncify', async () => {
  // (module (memory (export "memory") 1) (global (export "__stack_pointer") (mut i32) (i32.const 0)) (func (export "malloc") (param i32) (result i32) i32.const 0))
  const plain = new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f,
    0x03, 0x02, 0x01, 0x00,
    0x05, 0x03, 0x01, 0x00, 0x01,
    0x06, 0x06, 0x01, 0x7f, 0x01, 0x41, 0x00, 0x0b,
    0x07, 0x25, 0x03, 0x06, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79, 0x02, 0x00,
    0x0f, 0x5f, 0x5f, 0x73, 0x74, 0x61, 0x63, 0x6b, 0x5f, 0x70, 0x6f, 0x69, 0x6e, 0x74, 0x65, 0x72, 0x03, 0x00,
    0x06, 0x6d, 0x61, 0x6c, 0x6c, 0x6f, 0x63, 0x00, 0x00,
    0x0a, 0x06, 0x01, 0x04, 0x00, 0x41, 0x00, 0x0b,
  ]);
  const { exports } = await WebAssembly.instantiate(await WebAssembly.compile(plain));
  expect(() => new AsyncifyPause(exports)).toThrow(/does not export asyncify_start_unwind: it is not asyncify-instrumented/);
});
