/**
 * One-off migration for branches written before src/contracts existed (issue #14): rewrites named
 * imports of the moved symbols to their new homes, merges the imports this leaves from one module,
 * and renames the `Model` type to `AnswerSource`. Run from the repository root, on every tracked
 * source file or on the files given: `node scripts/migrate-contracts-imports.mjs [file…]`.
 * Delete this file once the branches in flight are merged.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

const CONTRACTS = 'src/contracts/index.ts';
const OUTPUT = 'runtimes/host/output.ts';
const MOVED = new Set([
  'LANGUAGE_IDS', 'LanguageId', 'acceptedLanguages', 'normalizeLanguage', 'LANGUAGE_NAMES',
  'OUTCOMES', 'Outcome', 'TestReport', 'ExecutionReport',
  'RunRequest', 'RunResult', 'Executor', 'LanguageRuntime', 'InfrastructureError',
  'TokenUsage', 'StoredUsage', 'toStoredUsage', 'fromStoredUsage',
  'ModelAnswer', 'PriorTurn', 'AnswerContext', 'FIRST_ATTEMPT', 'Model', 'AnswerSource',
  'AnswerUnavailableError', 'AuthenticationError', 'BenchRecord', 'Problem',
]);
/** Old module (path without extension) → where each of its names lives now. */
const HOMES = {
  'src/core/languages': () => CONTRACTS,
  'src/core/rules/index': (name) => (MOVED.has(name) ? CONTRACTS : 'src/core/rules/index.ts'),
  'src/core/rules/outcome': (name) => (MOVED.has(name) ? CONTRACTS : 'src/core/rules/outcome.ts'),
  'runtimes/types': (name) => (MOVED.has(name) ? CONTRACTS : OUTPUT),
  'src/models/types': () => CONTRACTS,
  'src/models/usage': (name) => (MOVED.has(name) ? CONTRACTS : 'src/models/usage.ts'),
  'src/core/records': (name) => (name === 'Problem' || name === 'BenchRecord' ? CONTRACTS : 'src/core/records.ts'),
};

const root = process.cwd();
const given = process.argv.slice(2);
const files = (given.length ? given : execFileSync('git', ['ls-files', 'src', 'runtimes', 'runner', 'scripts', 'tests'], { encoding: 'utf8' }).trim().split('\n'))
  .filter((f) => /\.(ts|mts|svelte)$/.test(f) && !f.startsWith('src/contracts/') && existsSync(f));

/** The specifier `file` uses for `target`, keeping `.ts` endings where the file's imports have them (scripts/*.mts). */
function specifier(file, target, withExtension) {
  let path = relative(dirname(file), target);
  if (!withExtension) path = path.replace(/\.ts$/, '').replace(/(^|\/)index$/, '$1').replace(/\/$/, '') || '.';
  return path.startsWith('.') ? path : `./${path}`;
}

const isType = (part) => part.startsWith('type ');
const bare = (part) => part.replace(/^type\s+/, '');
function list(parts) {
  const sorted = [...new Set(parts)].sort((a, b) => (isType(a) - isType(b)) || bare(a).toLowerCase().localeCompare(bare(b).toLowerCase()));
  return sorted.every(isType) ? { typeOnly: true, names: sorted.map(bare) } : { typeOnly: false, names: sorted };
}

const STATEMENT = /^([ \t]*)(import|export)(\s+type)?\s*\{([^}]*)\}\s*from\s*(['"])([^'"]+)\5;?[ \t]*$/gm;
for (const file of files) {
  const before = readFileSync(file, 'utf8');
  let renamed = false;
  const written = new Set();
  // 1. Named imports and re-exports of a moved module go to the new homes.
  let text = before.replace(STATEMENT, (whole, indent, keyword, typeKeyword, names, quote, from) => {
    if (!from.startsWith('.')) return whole;
    const withExtension = /\.ts$/.test(from);
    let old = relative(root, resolve(dirname(file), from)).replace(/\.(ts|js)$/, '');
    if (HOMES[`${old}/index`]) old = `${old}/index`;
    const home = HOMES[old];
    if (!home) return whole;
    const byTarget = new Map();
    for (const raw of names.split(',').map((s) => s.trim()).filter(Boolean)) {
      let part = bare(raw) === 'Model' ? 'AnswerSource' : bare(raw);
      if (part === 'AnswerSource') renamed = true;
      const target = home(part.split(/\s+as\s+/)[0] === 'AnswerSource' ? 'Model' : part.split(/\s+as\s+/)[0]);
      if (typeKeyword || isType(raw)) part = `type ${part}`;
      byTarget.set(target, [...(byTarget.get(target) ?? []), part]);
    }
    return [...byTarget].map(([target, parts]) => {
      const { typeOnly, names: listed } = list(parts);
      const to = specifier(file, target, withExtension);
      written.add(to);
      return `${indent}${keyword}${typeOnly ? ' type' : ''} { ${listed.join(', ')} } from ${quote}${to}${quote};`;
    }).join('\n');
  });
  // 2. One import statement per module that step 1 wrote to.
  const lines = text.split('\n');
  const first = new Map();
  const IMPORT = /^([ \t]*)import(\s+type)?\s*\{([^}]*)\}\s*from\s*(['"])([^'"]+)\4;?[ \t]*$/;
  for (let i = 0; i < lines.length; i++) {
    const m = lines[i].match(IMPORT);
    if (!m || !written.has(m[5])) continue;
    const [, indent, typeKeyword, names, quote, from] = m;
    const parts = names.split(',').map((s) => s.trim()).filter(Boolean).map((p) => (typeKeyword && !isType(p) ? `type ${p}` : p));
    const key = `${indent}|${from}`;
    const seen = first.get(key);
    if (!seen) { first.set(key, { i, parts, indent, quote, from }); continue; }
    seen.parts.push(...parts);
    lines[i] = null;
    const { typeOnly, names: listed } = list(seen.parts);
    lines[seen.i] = `${seen.indent}import${typeOnly ? ' type' : ''} { ${listed.join(', ')} } from ${seen.quote}${seen.from}${seen.quote};`;
  }
  text = lines.filter((l) => l !== null).join('\n');
  // 3. The type's uses (in annotations and generics; "Model" in prose and labels stays).
  if (renamed) text = text.replace(/(?<=(: |<|\| ))Model\b(?!\s+(provider|panel|field|answer))/g, 'AnswerSource');
  if (text !== before) {
    writeFileSync(file, text);
    console.log(file);
  }
}
