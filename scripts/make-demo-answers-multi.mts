// Builds bench-data/demo-answers-multi.jsonl: recorded answers with several samples and
// refinement turns for the demo set's Python, JavaScript and TypeScript problems, so that pass@k
// and the refinement curve are not trivial. Deterministic. Every answer is run once here (demo and
// full tests, 3 s limit) and its outcomes are written into its `expected` field; the tests compute
// their expected figures from those fields.
//
//   node scripts/build-node.mjs && npx tsx scripts/make-demo-answers-multi.mts
//
// Sample 0, turn 1 is the problem's answer in bench-data/demo-answers.jsonl, so the single-attempt
// Pass@1 equals that file's. Right answers: that recorded answer when it passes, or the reference
// solution in a fenced block with some prose. Wrong answers: the recorded wrong answer, a mutant of
// the reference solution (one operator changed; found by trying mutations) that fails the public
// tests, or one that passes them but fails the private ones, a prose-only reply, and a reply cut
// off by the token limit.
import { readFileSync, writeFileSync } from 'node:fs';
import { evaluateProblem } from '../src/core/engine.ts';
import { parseDataset } from '../src/core/records.ts';
import type { Problem } from '../src/contracts/index.ts';
import type { AttemptResult } from '../src/core/results.ts';
import { createNodeExecutor } from '../runtimes/host/node.ts';

const LANGS = ['python', 'javascript', 'typescript'];
const SAMPLES = 5;
const TURNS = 3;
const problems = parseDataset(readFileSync('bench-data/demo.jsonl', 'utf8')).problems.filter((p) => LANGS.includes(p.language));
const recorded = new Map(readFileSync('bench-data/demo-answers.jsonl', 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: string; output: string; expected: { demo: string; full: string } }).map((a) => [a.id, a]));
const executor = createNodeExecutor({ poolSize: 2 });
const timeoutMs = () => 3000;

const passes = (r: AttemptResult) => r.verdict === 'passed';
const outcomes = (r: AttemptResult) => ({ demo: r.demo?.outcome ?? r.verdict.toUpperCase(), full: r.full?.outcome ?? r.verdict.toUpperCase() });
const answerModel = (text: string) => ({ id: 'gen', answer: async () => ({ text }) });
const run = (p: Problem, text: string) => evaluateProblem(p, answerModel(text), executor, { timeoutMs }, undefined);
const tag = (p: Problem) => p.language;

/** One-operator mutations of the reference solution, in a fixed order. */
const MUTATIONS: Array<[string, string]> = [
  ['<=', '<'], ['>=', '>'], [' < ', ' <= '], [' > ', ' >= '], [' + 1', ' + 2'], [' - 1', ' - 2'], ['+= 1', '+= 2'],
  ['===', '!=='], ['==', '!='], [' and ', ' or '], ['&&', '||'], ['True', 'False'], ['true', 'false'],
  ['max(', 'min('], ['Math.max(', 'Math.min('], ['sorted(', 'list('], ['.sort(', '.reverse('], ['[0]', '[1]'], ['(0)', '(1)'], [' 0;', ' 1;'], ['= 0\n', '= 1\n'],
];

function* mutants(code: string): Generator<string> {
  for (const [from, to] of MUTATIONS) {
    let at = code.indexOf(from);
    let n = 0;
    while (at !== -1 && n < 6) {
      yield code.slice(0, at) + to + code.slice(at + from.length);
      at = code.indexOf(from, at + from.length);
      n++;
    }
  }
}

const fence = (p: Problem, code: string) => '```' + tag(p) + '\n' + code.trim() + '\n```';

const RIGHT_PROSE = [
  (p: Problem) => `Here is a solution.\n\n${fence(p, p.record.canonical_solution)}\n\nIt handles the edge cases described in the problem.`,
  (p: Problem) => `<think>\nLet me restate the task and check the examples before writing the code.\n</think>\n${fence(p, p.record.canonical_solution)}`,
  (p: Problem) => `${fence(p, p.record.canonical_solution)}\n\nThe implementation follows the specification step by step.`,
];
const FIXED_PROSE = (p: Problem) => `You are right, the previous version was wrong. Here is the corrected solution:\n\n${fence(p, p.record.canonical_solution)}`;
const PROSE_ONLY = 'I would need more details about the expected input format before writing this. Could you clarify the edge cases?';
const truncated = (p: Problem) => {
  const lines = p.record.canonical_solution.trim().split('\n');
  return `Sure, here is the implementation:\n\n\`\`\`${tag(p)}\n${lines.slice(0, Math.max(1, Math.floor(lines.length / 3))).join('\n')}\n`;
};

interface Candidate { output: string; kind: string }

/** Per-problem pools of right and wrong answers (each verified). */
async function pools(p: Problem): Promise<{ right: Candidate[]; wrong: Candidate[] }> {
  const right: Candidate[] = [];
  const wrong: Candidate[] = [];
  const rec = recorded.get(p.id)!;
  const recPasses = rec.expected.demo === 'PASSED' && rec.expected.full === 'PASSED';
  if (recPasses) right.push({ output: rec.output, kind: 'the recorded demo answer (right)' });
  else if (rec.expected.demo !== 'TIME_LIMIT_EXCEEDED') wrong.push({ output: rec.output, kind: 'the recorded demo answer (wrong)' });
  RIGHT_PROSE.forEach((f, i) => right.push({ output: f(p), kind: `reference solution, prose variant ${i + 1}` }));
  // Mutants: one that fails the public tests, one that passes them but fails the private ones.
  let demoFail: Candidate | undefined;
  let hiddenFail: Candidate | undefined;
  for (const code of mutants(p.record.canonical_solution)) {
    if (demoFail && hiddenFail) break;
    const r = await run(p, fence(p, code));
    const o = outcomes(r);
    if (o.demo === 'TIME_LIMIT_EXCEEDED' || o.full === 'TIME_LIMIT_EXCEEDED') continue;
    if (!demoFail && o.demo !== 'PASSED') demoFail = { output: `Here is my solution.\n\n${fence(p, code)}`, kind: 'mutant of the reference solution: fails the public tests' };
    if (!hiddenFail && o.demo === 'PASSED' && o.full !== 'PASSED') hiddenFail = { output: `Here is my solution.\n\n${fence(p, code)}`, kind: 'mutant of the reference solution: passes the public tests, fails the private ones' };
  }
  if (demoFail) wrong.push(demoFail);
  if (hiddenFail) wrong.push(hiddenFail);
  wrong.push({ output: PROSE_ONLY, kind: 'prose only, no code' });
  wrong.push({ output: truncated(p), kind: 'cut off by the token limit (unclosed fence, a third of the code)' });
  return { right, wrong };
}

// Chains per sample: R = a right answer, W = a wrong one; a chain stops at its first R.
// Sample 0's first letter is fixed by the recorded answer; the rest rotate over these patterns.
const PATTERNS: string[][] = [
  ['R', 'WR', 'R', 'WWR', 'R'],
  ['WR', 'R', 'WWR', 'R', 'WR'],
  ['WWW', 'WR', 'WWW', 'R', 'WWW'],
  ['R', 'WR', 'R', 'WWW', 'R'],
  ['WWR', 'WWW', 'WWW', 'WWW', 'R'],
  ['WWW', 'WWW', 'WWW', 'WWW', 'WWW'],
  ['R', 'R', 'WWW', 'R', 'WR'],
  ['WR', 'WWR', 'R', 'WR', 'WWW'],
];

const lines: string[] = [];
let pi = 0;
for (const p of problems) {
  const { right, wrong } = await pools(p);
  const rec = recorded.get(p.id)!;
  const recPasses = rec.expected.demo === 'PASSED' && rec.expected.full === 'PASSED';
  // The first pattern (from this problem's offset) whose sample 0 starts like the recorded answer.
  let pattern = PATTERNS[pi % PATTERNS.length]!;
  for (let j = 0; j < PATTERNS.length; j++) {
    const cand = PATTERNS[(pi + j) % PATTERNS.length]!;
    if ((cand[0]![0] === 'R') === recPasses) {
      pattern = cand;
      break;
    }
  }
  let r = 0;
  let w = 0;
  for (let sample = 0; sample < SAMPLES; sample++) {
    const chain = pattern[sample]!;
    for (let t = 0; t < chain.length && t < TURNS; t++) {
      let cand: Candidate;
      if (sample === 0 && t === 0) cand = { output: rec.output, kind: `the recorded demo answer (${recPasses ? 'right' : 'wrong'})` };
      else if (chain[t] === 'R') cand = t > 0 ? { output: FIXED_PROSE(p), kind: 'corrected after feedback: the reference solution' } : right[(pi + r++) % right.length]!;
      else cand = wrong[(pi + w++) % wrong.length]!;
      const result = await run(p, cand.output);
      const expected = outcomes(result);
      if (passes(result) !== (chain[t] === 'R')) throw new Error(`${p.id} sample ${sample} turn ${t + 1}: meant ${chain[t]} but got ${JSON.stringify(expected)} (${cand.kind})`);
      lines.push(JSON.stringify({ id: p.id, sample, turn: t + 1, output: cand.output, expected, note: `${p.language}: ${cand.kind}` }));
    }
  }
  console.error(`${p.id} ${p.language}: ${pattern.join(' ')}`);
  pi++;
}
await executor.dispose();
writeFileSync('bench-data/demo-answers-multi.jsonl', lines.join('\n') + '\n');
console.error(`${lines.length} answers for ${problems.length} problems`);
