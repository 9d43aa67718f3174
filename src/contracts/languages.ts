/** The 20 AutoCodeBench language ids (SPEC §1), the aliases accepted on input, and display names. */
export const LANGUAGE_IDS = [
  'python', 'cpp', 'java', 'javascript', 'go', 'shell', 'csharp', 'dart', 'elixir', 'julia',
  'kotlin', 'perl', 'php', 'racket', 'r', 'ruby', 'rust', 'scala', 'swift', 'typescript',
] as const;

export type LanguageId = (typeof LANGUAGE_IDS)[number];

// A Map, not an object literal: "constructor" or "__proto__" in a dataset must not resolve to
// Object.prototype's members (found by tests/security/fuzz.test.ts).
const ALIASES = new Map<string, LanguageId>(Object.entries({
  'c++': 'cpp', 'c#': 'csharp', cs: 'csharp', js: 'javascript', ts: 'typescript', sh: 'shell',
  bash: 'shell', golang: 'go', rs: 'rust', ex: 'elixir', py: 'python', rb: 'ruby', kt: 'kotlin',
  jl: 'julia', rkt: 'racket',
  // Common spellings beyond SPEC §1's list (issue #17): versioned names, runtimes, spelled-out symbols.
  python3: 'python', py3: 'python', cplusplus: 'cpp', 'c-sharp': 'csharp', node: 'javascript',
  nodejs: 'javascript', 'node.js': 'javascript', 'c sharp': 'csharp', 'python 3': 'python',
} satisfies Record<string, LanguageId>));

const KNOWN = new Set<string>(LANGUAGE_IDS);

/** Every id and alias accepted on input, for error messages: "python (py, python3, py3), cpp (c++, …), …". */
export function acceptedLanguages(): string {
  return LANGUAGE_IDS.map((id) => {
    const aliases = [...ALIASES].filter(([, to]) => to === id).map(([alias]) => alias);
    return aliases.length ? `${id} (${aliases.join(', ')})` : id;
  }).join(', ');
}

/** Case-insensitive; resolves aliases; returns null for an id that is not one of the 20. */
export function normalizeLanguage(raw: string): LanguageId | null {
  const id = raw.trim().toLowerCase().replace(/\s+/g, ' ');
  if (KNOWN.has(id)) return id as LanguageId;
  return ALIASES.get(id) ?? null;
}

/** Display names for tables and the app. */
export const LANGUAGE_NAMES: Record<LanguageId, string> = {
  python: 'Python', cpp: 'C++', java: 'Java', javascript: 'JavaScript', go: 'Go', shell: 'Shell',
  csharp: 'C#', dart: 'Dart', elixir: 'Elixir', julia: 'Julia', kotlin: 'Kotlin', perl: 'Perl',
  php: 'PHP', racket: 'Racket', r: 'R', ruby: 'Ruby', rust: 'Rust', scala: 'Scala', swift: 'Swift',
  typescript: 'TypeScript',
};
