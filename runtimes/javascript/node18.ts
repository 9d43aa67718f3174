/**
 * The official image runs Node 18 (V8 10.2); QuickJS-ng implements ECMAScript 2025 and more. A
 * program that uses something newer than Node 18 fails officially, so here too:
 *   - built-ins: NODE18_INTRINSICS removes what QuickJS has and Node 18.20.8 lacks, from every
 *     fresh context before the program runs (the list is the difference between the two runtimes'
 *     own properties, enumerated in both; docs/fidelity.md says how);
 *   - syntax: node18SyntaxError reports a SyntaxError, as Node 18 would, for a program that parses
 *     under the newest grammar but not under ES2022 (RegExp `v` flag, duplicate named groups,
 *     modifiers `(?i:…)`, `using`). Programs that parse under neither are left to QuickJS.
 */
import { parse } from 'acorn';

/** Evaluated in each fresh context before node-env.generated.js and the program. */
export const NODE18_INTRINSICS = `(() => {
  const drop = (target, names) => { for (const n of names) delete target[n]; };
  const TypedArray = Object.getPrototypeOf(Int8Array);
  // ES2023 "change array by copy" (V8 11.0, Node 20).
  drop(Array.prototype, ['toReversed', 'toSorted', 'toSpliced', 'with']);
  drop(TypedArray.prototype, ['toReversed', 'toSorted', 'with']);
  // Array.fromAsync (Node 22); Object/Map.groupBy (Node 21); Promise.withResolvers (Node 22),
  // Promise.try (Node 23); Set methods (Node 22); String well-formedness (Node 20).
  drop(Array, ['fromAsync']);
  drop(Object, ['groupBy']);
  drop(Map, ['groupBy']);
  drop(Promise, ['withResolvers', 'try']);
  drop(Set.prototype, ['union', 'intersection', 'difference', 'symmetricDifference', 'isSubsetOf', 'isSupersetOf', 'isDisjointFrom']);
  drop(String.prototype, ['isWellFormed', 'toWellFormed']);
  // Upsert (not in any Node release yet); RegExp.escape, Error.isError, Float16, Math.sumPrecise (Node 24).
  drop(Map.prototype, ['getOrInsert', 'getOrInsertComputed']);
  drop(WeakMap.prototype, ['getOrInsert', 'getOrInsertComputed']);
  drop(RegExp, ['escape']);
  drop(RegExp.prototype, ['unicodeSets']);
  drop(Error, ['isError']);
  drop(Math, ['f16round', 'sumPrecise']);
  drop(DataView.prototype, ['getFloat16', 'setFloat16']);
  // Resizable and transferable buffers (Node 20), immutable buffers (not in Node yet).
  drop(ArrayBuffer.prototype, ['detached', 'immutable', 'maxByteLength', 'resizable', 'resize', 'sliceToImmutable', 'transfer', 'transferToFixedLength', 'transferToImmutable']);
  if (typeof SharedArrayBuffer === 'function') drop(SharedArrayBuffer.prototype, ['grow', 'growable', 'maxByteLength']);
  // Iterator helpers and the Iterator global (Node 22): %IteratorPrototype% keeps only @@iterator.
  if (typeof Iterator === 'function') {
    const proto = Iterator.prototype;
    for (const key of Reflect.ownKeys(proto)) if (key !== Symbol.iterator) delete proto[key];
    delete globalThis.Iterator;
  }
  delete globalThis.Float16Array;
  // Node 18.18+ defines these two well-known symbols (for explicit resource management); QuickJS does not.
  for (const name of ['dispose', 'asyncDispose']) {
    if (!(name in Symbol)) Object.defineProperty(Symbol, name, { value: Symbol('Symbol.' + name) });
  }
})();
`;

/**
 * Node 18's report of a program it cannot parse, or null when the program's syntax is not newer
 * than Node 18's (it parses as ES2022, or it does not parse at all and QuickJS will say so).
 */
export function node18SyntaxError(program: string): string | null {
  const options = { sourceType: 'script', allowHashBang: true, allowReturnOutsideFunction: false } as const;
  let error: SyntaxError & { loc?: { line: number; column: number } };
  try {
    parse(program, { ...options, ecmaVersion: 2022 });
    return null;
  } catch (e) {
    error = e as typeof error;
  }
  try {
    parse(program, { ...options, ecmaVersion: 'latest' });
  } catch {
    return null;
  }
  const line = error.loc?.line ?? 1;
  const column = error.loc?.column ?? 0;
  const source = program.split('\n')[line - 1] ?? '';
  const message = error.message.replace(/ \(\d+:\d+\)$/, '');
  return `/sandbox/test.js:${line}\n${source}\n${' '.repeat(column)}^\n\nSyntaxError: ${message}\n\nNode.js v18.20.8 (benchtop: QuickJS)\n`;
}
