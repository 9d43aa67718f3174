/** webR's R.js, turned into a factory of new Rs that runs without the worker's globals. */
import { javascriptDataUrl } from '../host/module-url';
import type { Factory } from './emscripten';

/**
 * Makes R.js a factory `(Module) => void` that starts a new R each time it is called. R.js is an
 * Emscripten script written for a worker's global scope; here it runs inside one function, with
 * a `globalThis` of its own, the network, Node and DOM globals shadowed, and these changes to its
 * text (each must match exactly once, or loading fails loudly):
 *  - its file loaders read the files we were handed (Module.benchtopReadAsync/ReadBinary);
 *  - side modules are compiled once and the compiled module reused (Module.benchtopCompile);
 *  - system() asks Module.benchtopSystem first (R's clean-up at exit);
 *  - the dynamic linker tells how many side modules are loaded and loads one on request
 *    (Module.benchtopLibraries, Module.benchtopLoadLibrary);
 *  - C code cannot evaluate JavaScript (emscripten_run_script*: nothing runs, the result is 0).
 * Emscripten publishes the wasm exports as globals and reads some of them back as bare names
 * (`_malloc`, `___heap_base`, …): those are declared as variables of the factory, and its
 * `globalThis` stores them there.
 */
export function wrapRJs(source: string, wasm: WebAssembly.Module): string {
  let text = source;
  const patch = (from: string, to: string) => {
    const count = text.split(from).length - 1;
    if (count !== 1) throw new Error(`benchtop: unexpected R.js (${count} × ${from.slice(0, 40)}…); is this webR 0.6?`);
    text = text.replace(from, () => to);
  };
  patch('var readAsync,readBinary;', 'var readAsync=Module.benchtopReadAsync,readBinary=Module.benchtopReadBinary;');
  patch(
    'var loadWebAssemblyModule=(binary,flags,libName,localScope,handle)=>{',
    'var loadWebAssemblyModule=(binary,flags,libName,localScope,handle)=>{binary=Module.benchtopCompile(binary,libName);',
  );
  patch(
    'var __emscripten_system=command=>{',
    'var __emscripten_system=command=>{var benchtopStatus=Module.benchtopSystem(command?UTF8ToString(command):null);if(benchtopStatus!==undefined)return benchtopStatus;',
  );
  patch(
    'var LDSO={',
    'Module.benchtopLibraries=()=>Object.keys(LDSO.loadedLibsByName).length;' +
      'Module.benchtopLoadLibrary=path=>loadDynamicLibrary(path,{global:false,nodelete:true},{});var LDSO={',
  );
  // webR's R downloads (download.file, url()) by evaluating JavaScript that it writes: nothing
  // is evaluated, and R sees a failed request ("cannot open the connection"), as offline.
  patch('var _emscripten_run_script=ptr=>{eval(UTF8ToString(ptr))};', 'var _emscripten_run_script=ptr=>{};');
  patch('var _emscripten_run_script_int=ptr=>eval(UTF8ToString(ptr))|0;', 'var _emscripten_run_script_int=ptr=>0;');
  patch('var _emscripten_run_script_string=ptr=>{var s=eval(UTF8ToString(ptr));', 'var _emscripten_run_script_string=ptr=>{var s=null;');

  const bare = new Set<string>();
  for (const m of text.matchAll(/(?:^|[^\w$."'])([A-Za-z_$][\w$]*)/g)) bare.add(m[1]!);
  const declared = new Set<string>();
  for (const m of text.matchAll(/(?:var|let|const|function|class)\s+([A-Za-z_$][\w$]*)/g)) declared.add(m[1]!);
  const mangle = (name: string) => '_' + (name === '__main_argc_argv' ? 'main' : name);
  const globals = WebAssembly.Module.exports(wasm).map((e) => mangle(e.name)).filter((n) => bare.has(n) && !declared.has(n));
  globals.push('wasmTable', 'wasmMemory', 'incrementUncaughtExceptionCount', 'decrementUncaughtExceptionCount');
  const shadowed = [
    'process', 'require', 'module', '__filename', '__dirname', 'window', 'document', 'self', 'location', 'navigator',
    'importScripts', 'XMLHttpRequest', 'fetch', 'WebSocket', 'Worker', 'WorkerGlobalScope',
  ];
  const accessors = globals.map((n) => `get ${n}() { return ${n}; }, set ${n}(v) { ${n} = v; }`);
  return [
    '"use strict";',
    `var ${globals.join(', ')};`,
    `var ${shadowed.join(', ')};`,
    `var globalThis = { Module: Module, ${accessors.join(',\n')} };`,
    text,
  ].join('\n');
}

/**
 * Evaluates the factory's text once. In a browser worker it is a blob: script (the only code the
 * sandbox's policy allows besides WebAssembly); under Node a data: module, since the CLI's
 * runtime processes allow no code from strings (runtimes/host/node.ts).
 */
export async function loadFactory(body: string): Promise<Factory> {
  const scope = globalThis as unknown as { importScripts?: (url: string) => void } & Record<string, unknown>;
  if (typeof scope.importScripts === 'function') {
    const key = '__benchtopRFactory';
    const url = URL.createObjectURL(new Blob([`self.${key} = function (Module) {\n${body}\n};`], { type: 'text/javascript' }));
    try {
      scope.importScripts(url);
    } finally {
      URL.revokeObjectURL(url);
    }
    const factory = scope[key] as Factory | undefined;
    delete scope[key];
    if (typeof factory !== 'function') throw new Error('benchtop: R.js did not load');
    return factory;
  }
  const url = javascriptDataUrl(`export default function (Module) {\n${body}\n}`);
  const factory = ((await import(/* @vite-ignore */ url)) as { default?: Factory }).default;
  if (typeof factory !== 'function') throw new Error('benchtop: R.js did not load');
  return factory;
}
