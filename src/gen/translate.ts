/**
 * Stage 6 (optional, `--translate-to`): a kept problem is translated by the generator model into
 * another language (statement, solution, inputs and both tests in one answer), then verified by
 * execution as a new problem is: the solution runs twice on every input (no crash, same outputs),
 * both tests pass against it, and the full tests catch a mutant. A translation that fails any of
 * these is dropped with the step (solution: malformed answer, outputs, tests) and the reason.
 */
import type { BenchRecord, LanguageId } from '../contracts';
import { stripThinking } from '../core/extract';
import { extractParts, inputLines } from './blocks';
import { mutants } from './harness';
import { fill, inputStyle, languageName, PROMPT_VERSION, testStyle } from './prompts';
import { ask, Drop, failingTests, mutationCheck, outputsStage, type GenContext } from './stages';

/** The source problem's inputs as the solution stage gave them (public first). */
export interface SourceInputs {
  publicInputs: readonly string[];
  privateInputs: readonly string[];
}

export interface TranslationOutcome {
  to: LanguageId;
  kept: boolean;
  stage?: string;
  reason?: string;
}

const PARTS = ['SOLUTION', 'INPUTS', 'DEMO_TEST', 'FULL_TEST'] as const;

/** The statement is Markdown with its own example blocks: the text between its heading and SOLUTION's. */
function parseTranslation(raw: string): { parts: Record<string, string> } | { missing: string } {
  const text = stripThinking(raw).replace(/\r\n/g, '\n');
  const head = /^[#*\s]*QUESTION[*:\s]*$/m.exec(text);
  const next = /^[#*\s]*SOLUTION[*:\s]*$/m.exec(text);
  if (!head || !next || next.index < head.index) return { missing: 'QUESTION' };
  const question = text.slice(head.index + head[0].length, next.index).trim();
  if (question.length < 20) return { missing: 'QUESTION' };
  const found = extractParts(text.slice(next.index), PARTS);
  if (!('parts' in found)) return { missing: found.missing.join(', ') };
  return { parts: { ...found.parts, QUESTION: question } };
}

export async function translateProblem(ctx: GenContext, source: BenchRecord, inputs: SourceInputs, to: LanguageId): Promise<BenchRecord> {
  const target: GenContext = { ...ctx, language: to };
  const all = [...inputs.publicInputs, ...inputs.privateInputs];
  const prompt = fill('translate', {
    FROM: languageName(source.language as LanguageId), LANG: languageName(to), INPUT_STYLE: inputStyle(to)!, TEST_STYLE: testStyle(to)!,
    QUESTION: source.question, SOLUTION: source.canonical_solution, INPUTS: all.join('\n'), DEMO: source.demo_test_func, FULL: source.full_test_func,
  });
  let problem = '';
  let parts: Record<string, string> | undefined;
  for (let attempt = 0; attempt < 2 && !parts; attempt++) {
    const found = parseTranslation(await ask(target, ctx.generator, 'solution', prompt));
    if (!('parts' in found)) problem = `missing ${found.missing}`;
    else if (inputLines(found.parts.INPUTS!).length !== all.length) problem = `${inputLines(found.parts.INPUTS!).length} inputs for the source's ${all.length}`;
    else parts = found.parts;
  }
  if (!parts) throw new Drop('solution', `malformed translation (twice): ${problem}`);
  const solution = parts.SOLUTION!;
  const translated = inputLines(parts.INPUTS!);
  await outputsStage(target, { solution, publicInputs: translated.slice(0, inputs.publicInputs.length), privateInputs: translated.slice(inputs.publicInputs.length) });
  // No send-back here: the source's tests passed, a translation that breaks them is not kept.
  const failing = await failingTests(target, solution, parts.DEMO_TEST!, parts.FULL_TEST!);
  if (failing) throw new Drop('tests', `the translated ${failing.which} tests fail against the translated solution: ${failing.outcome}`);
  const caught = await mutationCheck(target, solution, parts.FULL_TEST!);
  return {
    ...source,
    question: parts.QUESTION!,
    canonical_solution: solution,
    demo_test_func: parts.DEMO_TEST!,
    full_test_func: parts.FULL_TEST!,
    language: to,
    translated_from: source.language,
    // The critic and the difficulty model judged the source problem, not this text.
    critic_score: null,
    difficulty_passes: `source: ${String(source.difficulty_passes)}`,
    mutation_check: `caught at ${caught.tried} of ${mutants(solution).length}`,
    prompt_version: PROMPT_VERSION,
  };
}
