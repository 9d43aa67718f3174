/**
 * How many workers a language's pool may run by default: one per core, capped so that the
 * language's workers fit in half the memory the host can spare (a pool of R or C++ workers on a
 * small machine would otherwise swap or be killed). Shared by the page and the CLI.
 */
import type { LanguageId } from '../../src/contracts';

/**
 * Peak resident memory of one worker after running the demo set's full tests, rounded up by about
 * a quarter (measured under Node on 2026-12-01: Python 195 MB, JavaScript 110, TypeScript 112,
 * Ruby 393, PHP 248, R 606, Perl 325, Shell 96, C++ 600). PHP re-measured on 2026-12-02 once a
 * worker kept one instance: 294 MB after the demo set, 360–377 MB from 2,000 to 6,000 programs.
 * Ruby re-measured on 2026-12-03 once a worker kept one instance and a full copy of its memory:
 * 395 MB after start-up, 481 MB at the peak of 200 demo programs (in-process, less the test
 * process's own 90 MB; the instance and the snapshot it is put back from, against 294 and 321 MB before).
 */
export const WORKER_MEMORY_MB: Partial<Record<LanguageId, number>> = {
  python: 256, javascript: 144, typescript: 144, ruby: 608, php: 448, r: 768, perl: 416, shell: 128, cpp: 768,
};
const UNKNOWN_WORKER_MB = 512;

/**
 * Workers per pool for `language`: `requested` (default: the cores), at most what half of
 * `memoryBytes` holds, and at least one.
 */
export function poolSizeFor(language: LanguageId, cores: number, memoryBytes: number, requested?: number): number {
  const wanted = Math.max(1, Math.floor(requested ?? cores));
  const perWorker = (WORKER_MEMORY_MB[language] ?? UNKNOWN_WORKER_MB) * 1024 * 1024;
  const fits = Math.floor(memoryBytes / 2 / perWorker);
  return Math.max(1, Math.min(wanted, fits));
}
