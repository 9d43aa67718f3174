import type { LanguageId } from '../../src/contracts';
import { CATALOG } from './catalog';

/** Languages with a runtime that runs inside the page (and, the same code, in Node workers). */
export const WORKER_LANGUAGES: readonly LanguageId[] = Object.keys(CATALOG) as LanguageId[];
