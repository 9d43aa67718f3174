/**
 * Seed code for the Generate tab: a pasted snippet or a source file is one seed (of the target
 * language); a JSONL file holds `{language, code}` records, as `npm run generate --seeds` reads.
 */
import { normalizeLanguage, type LanguageId } from '../../contracts';

export interface SeedInput {
  name: string;
  code: string;
  /** The record's language; null for a snippet, which is taken as the target language. */
  language: LanguageId | null;
}

/** The seeds of one file; a JSONL line that is not a `{language, code}` record is reported. */
export function seedsFromFile(name: string, text: string): { seeds: SeedInput[]; errors: string[] } {
  if (!/\.jsonl$/i.test(name)) return text.trim() ? { seeds: [{ name, code: text, language: null }], errors: [] } : { seeds: [], errors: [`${name} is empty`] };
  const seeds: SeedInput[] = [];
  const errors: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let r: { language?: unknown; code?: unknown };
    try {
      r = JSON.parse(line) as typeof r;
    } catch {
      errors.push(`${name}:${i + 1}: not JSON`);
      return;
    }
    const language = typeof r?.language === 'string' ? normalizeLanguage(r.language) : null;
    if (typeof r?.code !== 'string' || !r.code.trim() || !language) errors.push(`${name}:${i + 1}: needs a known "language" and a non-empty "code"`);
    else seeds.push({ name: `${name}:${i + 1}`, code: r.code, language });
  });
  return { seeds, errors };
}

/** The seeds a job of `language` uses: snippets, and records of that language. */
export const seedsFor = (seeds: readonly SeedInput[], language: LanguageId) => seeds.filter((s) => s.language === null || s.language === language);
