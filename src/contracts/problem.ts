/** The problem an answer source is asked about: one AutoCodeBench record (SPEC §1), validated. */
import type { LanguageId } from './languages';

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
