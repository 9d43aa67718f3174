/**
 * The one splice-and-verdict module (docs/architecture.md): browser, CLI and remote runner all call these
 * functions, so they can never disagree on the program that runs or on its outcome.
 */
import type { ExecutionReport, LanguageId, Outcome } from '../../contracts';
import { concatSplice } from './concat';
import { cppSplice } from './cpp';
import { csharpSplice } from './csharp';
import { goSplice } from './go';
import { dartSplice, kotlinSplice } from './hoist';
import { javaOutcome, javaSplice } from './java';
import { javascriptSplice } from './javascript';
import { phpPrecheck, phpSplice } from './php';
import { racketSplice } from './racket';
import { swiftSplice } from './swift';
import { decideOutcome } from './outcome';

export { decideOutcome } from './outcome';

export interface LanguageRule {
  id: LanguageId;
  /** The official sandbox's command, for reports (SPEC §5). */
  officialCommand: string;
  /** Official timeout: 30 s plus the language's extra. */
  timeoutSeconds: number;
  /** Case-sensitive plain substrings of stdout+stderr that mean WRONG_ANSWER when the exit code is 0 (SPEC §5's table, corrected 2026-12-01). */
  errorSubstrings: readonly string[];
  /** Joins solution and tests into the program that runs; null where not implemented yet. */
  splice: ((solution: string, tests: string) => string) | null;
  /** A check on the spliced program that decides the outcome without running it (PHP). */
  precheck?: (program: string) => Outcome | null;
  /** The language's own verdict rule where it is not the generic one (Java: JUnit's report). */
  judge?: (report: ExecutionReport) => Outcome;
}

type RuleTable = { [L in LanguageId]: Omit<LanguageRule, 'id'> };

const RULES: RuleTable = {
  python: { officialCommand: 'python3 test.py', timeoutSeconds: 30, errorSubstrings: [], splice: concatSplice },
  javascript: { officialCommand: 'node test.js', timeoutSeconds: 30, errorSubstrings: ['failed'], splice: javascriptSplice },
  typescript: { officialCommand: 'npx tsx test.ts', timeoutSeconds: 31, errorSubstrings: ['failed', 'AssertionError'], splice: concatSplice },
  shell: { officialCommand: 'bash test.sh', timeoutSeconds: 30, errorSubstrings: [], splice: concatSplice },
  elixir: { officialCommand: 'elixir test.ex', timeoutSeconds: 30, errorSubstrings: [], splice: concatSplice },
  julia: { officialCommand: 'julia test.jl', timeoutSeconds: 30, errorSubstrings: [], splice: concatSplice },
  perl: { officialCommand: 'perl test.pl', timeoutSeconds: 30, errorSubstrings: [], splice: concatSplice },
  r: { officialCommand: 'Rscript test.r', timeoutSeconds: 30, errorSubstrings: [], splice: concatSplice },
  ruby: { officialCommand: 'ruby test.rb', timeoutSeconds: 30, errorSubstrings: [], splice: concatSplice },
  rust: { officialCommand: 'cargo test', timeoutSeconds: 40, errorSubstrings: [], splice: concatSplice },
  scala: { officialCommand: 'amm test.sc', timeoutSeconds: 55, errorSubstrings: [], splice: concatSplice },
  cpp: { officialCommand: 'g++ -o test test.cpp && ./test', timeoutSeconds: 33, errorSubstrings: [], splice: cppSplice },
  java: { officialCommand: 'javac + JUnit 5', timeoutSeconds: 33, errorSubstrings: [], splice: javaSplice, judge: javaOutcome },
  go: { officialCommand: 'go test main_test.go', timeoutSeconds: 31, errorSubstrings: [], splice: goSplice },
  csharp: { officialCommand: 'dotnet run', timeoutSeconds: 40, errorSubstrings: ['Assertion failed'], splice: csharpSplice },
  dart: { officialCommand: 'dart run --enable-asserts test.dart', timeoutSeconds: 30, errorSubstrings: [], splice: dartSplice },
  kotlin: { officialCommand: 'kotlinc -script test.kts', timeoutSeconds: 40, errorSubstrings: [], splice: kotlinSplice },
  php: { officialCommand: 'php test.php', timeoutSeconds: 30, errorSubstrings: ['assert()', 'failed'], splice: phpSplice, precheck: phpPrecheck },
  racket: { officialCommand: 'raco test test.rkt', timeoutSeconds: 30, errorSubstrings: ['FAILURE', 'ERROR'], splice: racketSplice },
  swift: { officialCommand: 'swift test.swift', timeoutSeconds: 30, errorSubstrings: [], splice: swiftSplice },
};

export function languageRule(language: LanguageId): LanguageRule {
  return { id: language, ...RULES[language] };
}

export class UnsupportedSpliceError extends Error {
  constructor(readonly language: LanguageId) {
    super(`splicing for ${language} is not implemented yet`);
  }
}

/** The exact program the official sandbox would run for this solution and test program. */
export function spliceProgram(language: LanguageId, solution: string, tests: string): string {
  const { splice } = RULES[language];
  if (!splice) throw new UnsupportedSpliceError(language);
  return splice(solution, tests);
}

/**
 * The outcome decided before running, from the spliced program alone (SPEC §5, PHP), or null
 * when the program must run.
 */
export function precheckProgram(language: LanguageId, program: string): Outcome | null {
  return RULES[language].precheck?.(program) ?? null;
}

/** The official outcome of one run of a spliced program. */
export function judgeRun(language: LanguageId, report: ExecutionReport): Outcome {
  const { judge, errorSubstrings } = RULES[language];
  return judge ? judge(report) : decideOutcome(report, errorSubstrings);
}

/** Official per-language timeout in milliseconds. */
export function officialTimeoutMs(language: LanguageId): number {
  return RULES[language].timeoutSeconds * 1000;
}
