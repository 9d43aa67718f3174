/** The 20 AutoCodeBench language ids (SPEC §1) and the aliases accepted on input. */
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
} satisfies Record<string, LanguageId>));

const KNOWN = new Set<string>(LANGUAGE_IDS);

/** Lower-cases and resolves aliases; returns null for an id that is not one of the 20. */
export function normalizeLanguage(raw: string): LanguageId | null {
  const id = raw.trim().toLowerCase();
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
