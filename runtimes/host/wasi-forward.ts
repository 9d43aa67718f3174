/**
 * The WASI imports of a module whose one instance serves many runs while each run gets a new WASI
 * (descriptors, files, environment): every import calls the same function of the WASI of the run in
 * progress (`current()`). `intercept` sees each call first and may answer it (a number) instead.
 * Used by the runtimes that put one instance back from a snapshot (runtimes/host/wasm-snapshot.ts).
 */
export interface ForwardTarget {
  wasiImport: Record<string, unknown>;
}

export function forwardedWasiImports(
  module: WebAssembly.Module,
  current: () => ForwardTarget | null,
  intercept: (name: string, args: unknown[]) => number | undefined = () => undefined,
): Record<string, (...args: never[]) => unknown> {
  const imports: Record<string, (...args: never[]) => unknown> = {};
  for (const entry of WebAssembly.Module.imports(module)) {
    if (entry.module !== 'wasi_snapshot_preview1') continue;
    imports[entry.name] = (...args: never[]) => {
      const wasi = current();
      if (!wasi) throw new Error('a WASI call outside a run');
      const answered = intercept(entry.name, args);
      if (answered !== undefined) return answered;
      return (wasi.wasiImport[entry.name] as (...a: never[]) => unknown)(...args);
    };
  }
  return imports;
}
