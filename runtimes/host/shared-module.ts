/**
 * A runtime's compiled WebAssembly module: the one an earlier worker of the page compiled, handed
 * on by the runtime frame (runtimes/loader.ts RuntimeShared), else compiled here from its file. A
 * Module posted to a worker of the same page shares its machine code, functions already compiled
 * and optimised included, so a later worker starts where the first one's code has got to. Code
 * only: every instance still starts from the module's own data.
 */
import type { RuntimeShared } from '../loader';

export async function compiledModule(
  files: Record<string, ArrayBuffer>,
  shared: RuntimeShared | undefined,
  name: string,
  /** What the runtime does to the file's bytes before compiling (the same for every worker). */
  prepare: (bytes: ArrayBuffer) => BufferSource = (bytes) => bytes,
): Promise<WebAssembly.Module> {
  const given = shared?.modules?.[name];
  if (given instanceof WebAssembly.Module) return given;
  const bytes = files[name];
  if (!bytes) throw new Error(`missing ${name}`);
  return WebAssembly.compile(prepare(bytes));
}
