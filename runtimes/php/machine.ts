/**
 * One php-wasm instance whose imports forward to the Emscripten of the run in progress, so that
 * each run's new Emscripten can take it over (runtimes/php/php.ts says why): the forwarding, the
 * checks on its function table, and the one import the adapter answers itself (the pause's sleep).
 */

/** An Emscripten import object: module name → name → value. */
export type ImportObject = Record<string, Record<string, unknown>>;

/** The only non-function imports php-wasm has: asyncify's state and the GOT slot of `exit`. */
const GLOBAL_IMPORTS = ['env.__asyncify_state', 'env.__asyncify_data', 'GOT.func.exit'];

/** One php-wasm instance and what it must be checked against. */
export interface Machine {
  instance: WebAssembly.Instance;
  /** The Emscripten of the run in progress (its import object), which the instance calls; null between runs. */
  imports: ImportObject | null;
  /**
   * Gives a new Emscripten the table slots of the instance's functions (its GOT), as its first set-up
   * found them: otherwise each set-up reads all 12,000 table slots again to find them.
   */
  presetGot(imports: ImportObject): void;
  /**
   * After the first set-up: throws if it put anything but the instance's own functions in the
   * table, and keeps the GOT for `presetGot`.
   */
  afterSetUp(imports: ImportObject): void;
  /** False if the table grew since the first set-up (a function added at run time). */
  tableUnchanged(): boolean;
  /** Refuses every call from the instance from now on (a timer of an ended run, say). */
  retire(): void;
  /** Called instead of the run's Emscripten for the import `env.emscripten_sleep` while set (php.ts's pause and its resumption). */
  onSleep: ((ms: number) => void) | null;
  /** Asyncify's state: php.wasm imports it as a global (ours) and has no `asyncify_get_state`. */
  asyncifyState(): number;
}

/**
 * A new instance whose imports forward to the Emscripten of the run in progress, so that each
 * run's new Emscripten can take it over. Its imported globals are its own (asyncify's are in the
 * snapshot); the GOT slot of `exit`, which Emscripten would fill with its own function, points to
 * a function that forwards too.
 */
export async function createMachine(module: WebAssembly.Module): Promise<Machine> {
  let retired = false;
  const forwarding: ImportObject = {};
  const machine: Machine = {
    instance: null as unknown as WebAssembly.Instance,
    imports: null,
    presetGot: (imports) => {
      const got = imports['GOT.func'] as Record<string, WebAssembly.Global>;
      for (const [name, slot] of functionSlots ?? []) got[name]!.value = slot;
    },
    afterSetUp,
    tableUnchanged: () => table.length === setUpLength,
    retire: () => {
      retired = true;
      machine.imports = null;
    },
    onSleep: null,
    asyncifyState: () => (forwarding.env!.__asyncify_state as WebAssembly.Global).value as number,
  };
  for (const entry of WebAssembly.Module.imports(module)) {
    const space = (forwarding[entry.module] ??= {});
    if (entry.kind === 'function') {
      const sleep = entry.module === 'env' && entry.name === 'emscripten_sleep';
      space[entry.name] = (...args: unknown[]) => {
        if (sleep && machine.onSleep && !retired) return machine.onSleep(args[0] as number);
        const target = machine.imports?.[entry.module]?.[entry.name];
        if (retired || typeof target !== 'function') throw new Error(`php-wasm called ${entry.name} outside a run`);
        return (target as (...a: unknown[]) => unknown)(...args);
      };
    } else if (entry.kind === 'global' && GLOBAL_IMPORTS.includes(`${entry.module}.${entry.name}`)) {
      space[entry.name] = new WebAssembly.Global({ value: 'i32', mutable: true }, 0);
    } else {
      throw new Error(`php.wasm imports ${entry.kind} ${entry.module}.${entry.name}, which this adapter does not forward`);
    }
  }
  const instance = await WebAssembly.instantiate(module, forwarding as WebAssembly.Imports);
  machine.instance = instance;
  const exported = instance.exports.__indirect_function_table;
  if (!(exported instanceof WebAssembly.Table)) throw new Error('php.wasm exports no function table');
  const table: WebAssembly.Table = exported;
  const exitSlot = table.grow(1, forwardingFunction(forwarding.env!.exit as (status: number) => void));
  (forwarding['GOT.func']!.exit as WebAssembly.Global).value = exitSlot;
  const instantiatedLength = table.length;
  let setUpLength = -1;
  let functionSlots: [string, number][] | null = null;

  function afterSetUp(imports: ImportObject): void {
    if (functionSlots) return;
    // Emscripten's set-up adds the instance's exported functions to the table; a function of its
    // own there would be called by later runs, through an ended Emscripten.
    setUpLength = table.length;
    const own = new Set(Object.values(instance.exports));
    for (let i = instantiatedLength; i < setUpLength; i++) {
      if (!own.has(table.get(i))) throw new Error(`php-wasm's set-up put a function of its own in table slot ${i}`);
    }
    // Reading a GOT entry makes one (at -1) if the set-up made none (its internal symbols): skipped.
    const got = imports['GOT.func'] as Record<string, WebAssembly.Global>;
    functionSlots = Object.entries(instance.exports)
      .filter(([, value]) => typeof value === 'function')
      .map(([name]): [string, number] => [name, got[name]!.value as number])
      .filter(([, slot]) => slot !== -1);
  }
  return machine;
}

/**
 * A WebAssembly function (a table can hold only those) that calls `target` with one i32: the
 * module `(type (func (param i32))) (import "h" "f" (func (type 0))) (export "f" (func 0))`.
 */
function forwardingFunction(target: (value: number) => void): WebAssembly.ExportValue {
  const bytes = new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    0x01, 0x05, 0x01, 0x60, 0x01, 0x7f, 0x00,
    0x02, 0x07, 0x01, 0x01, 0x68, 0x01, 0x66, 0x00, 0x00,
    0x07, 0x05, 0x01, 0x01, 0x66, 0x00, 0x00,
  ]);
  return new WebAssembly.Instance(new WebAssembly.Module(bytes), { h: { f: target } }).exports.f!;
}
