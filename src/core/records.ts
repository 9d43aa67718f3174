/** Loading AutoCodeBench JSONL records (SPEC §1) with per-line error reporting. */
import { normalizeLanguage, type LanguageId } from './languages';
import { problemId } from './ids';

export const DIFFICULTIES = ['easy', 'medium', 'hard'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

/** One record as it appears in the official files (extra fields are kept). */
export interface BenchRecord {
  question: string;
  canonical_solution: string;
  demo_test_func: string;
  full_test_func: string;
  language: string;
  difficulty: string;
  output?: string;
  [extra: string]: unknown;
}

/** A validated record with its normalised language, stable id and position in the file. */
export interface Problem {
  id: string;
  /** 0-based position among the records that loaded. */
  index: number;
  /** 1-based line number in the source file. */
  line: number;
  language: LanguageId;
  difficulty: string;
  record: BenchRecord;
}

export interface LoadError {
  line: number;
  message: string;
}

export interface LoadedDataset {
  problems: Problem[];
  errors: LoadError[];
  /** Language ids that are not one of the 20, with how many records used each. */
  unknownLanguages: Record<string, number>;
}

const REQUIRED = ['question', 'canonical_solution', 'demo_test_func', 'full_test_func', 'language', 'difficulty'] as const;

/** Checks one parsed line; returns the problem or a message naming what is wrong. */
export function validateRecord(value: unknown): { record: BenchRecord; language: LanguageId } | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const obj = value as Record<string, unknown>;
  const missing = REQUIRED.filter((f) => obj[f] === undefined || obj[f] === null);
  if (missing.length) return `missing field${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`;
  const notString = REQUIRED.filter((f) => typeof obj[f] !== 'string');
  if (notString.length) return `field${notString.length > 1 ? 's' : ''} ${notString.join(', ')} must be text`;
  if (obj.output !== undefined && obj.output !== null && typeof obj.output !== 'string') return 'field output must be text';
  const language = normalizeLanguage(obj.language as string);
  if (!language) return `unknown language "${obj.language}"`;
  return { record: obj as BenchRecord, language };
}

/** Parses JSONL text. A bad line is reported as `line N: <what is wrong>`; the rest still loads. */
export function parseDataset(text: string): LoadedDataset {
  const problems: Problem[] = [];
  const errors: LoadError[] = [];
  const unknownLanguages: Record<string, number> = {};
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      errors.push({ line, message: `not valid JSON (${(e as Error).message})` });
      return;
    }
    const checked = validateRecord(value);
    if (typeof checked === 'string') {
      errors.push({ line, message: checked });
      const lang = (value as { language?: unknown })?.language;
      if (checked.startsWith('unknown language') && typeof lang === 'string') {
        unknownLanguages[lang] = (unknownLanguages[lang] ?? 0) + 1;
      }
      return;
    }
    const { record, language } = checked;
    problems.push({
      id: typeof record.id === 'string' && record.id ? record.id : problemId(language, record.question),
      index: problems.length,
      line,
      language,
      difficulty: record.difficulty.trim().toLowerCase(),
      record,
    });
  });
  return { problems, errors, unknownLanguages };
}

export function formatLoadError(e: LoadError): string {
  return `line ${e.line}: ${e.message}`;
}

export interface ProblemFilter {
  languages?: readonly string[];
  difficulties?: readonly string[];
  /** Keep only the first N after the other filters. */
  limit?: number;
}

export function filterProblems(problems: readonly Problem[], filter: ProblemFilter): Problem[] {
  const langs = filter.languages?.length ? new Set(filter.languages.map((l) => normalizeLanguage(l) ?? l)) : null;
  const diffs = filter.difficulties?.length ? new Set(filter.difficulties.map((d) => d.toLowerCase())) : null;
  const kept = problems.filter((p) => (!langs || langs.has(p.language)) && (!diffs || diffs.has(p.difficulty)));
  return filter.limit !== undefined && filter.limit >= 0 ? kept.slice(0, filter.limit) : kept;
}
