import type { LanguageId } from '../../src/core/languages';

/** Languages with a runtime that runs inside the page (and, the same code, in Node workers). */
export const WORKER_LANGUAGES: readonly LanguageId[] = ['python', 'javascript', 'typescript'];
