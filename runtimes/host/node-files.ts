/** Reads a language's runtime files (catalog.ts) from node_modules: the Node side of the page's downloads. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LanguageId } from '../../src/contracts';
import { CATALOG } from './catalog';

/** The nearest node_modules folder holding `path`, searching up from this module (source or bundle). */
export function nodeModulesPath(path: string, from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', path);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`benchtop: ${path} is not installed (npm install)`);
  }
}

/** Where each of a language's runtime files (by catalog name) is in node_modules. */
export function catalogFilePaths(language: LanguageId): Record<string, string> {
  return Object.fromEntries(Object.entries(CATALOG[language]?.files ?? {}).map(([name, path]) => [name, nodeModulesPath(path)]));
}

export function readCatalogFiles(language: LanguageId): Record<string, ArrayBuffer> {
  const files: Record<string, ArrayBuffer> = {};
  for (const [name, path] of Object.entries(catalogFilePaths(language))) {
    const bytes = readFileSync(path);
    files[name] = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }
  return files;
}
