import { describe, expect, it } from 'vitest';
import { problemId } from '../../src/core/ids';
import { acceptedLanguages, LANGUAGE_IDS } from '../../src/contracts';
import { DatasetStreamParser, filterProblems, formatLoadError, MAX_LISTED_ERRORS, parseDataset, subsetMembers } from '../../src/core/records';
import { parseAnswers, replayAnswersModel, replayOwnOutputModel } from '../../src/models/replay';
import { canonicalModel } from '../../src/models/canonical';

const record = (over: Record<string, unknown> = {}) =>
  JSON.stringify({
    question: 'Q', canonical_solution: 'S', demo_test_func: 'D', full_test_func: 'F', language: 'python', difficulty: 'easy', ...over,
  });

describe('loading JSONL records', () => {
  it('loads good lines, reports each bad one by line number, and lists unknown languages', () => {
    const text = [
      record(),
      '{"question": "no close"',
      record({ language: 'cobol' }),
      '',
      record({ question: 'Q2', language: 'C++', difficulty: 'Hard' }),
      JSON.stringify({ question: 'Q3' }),
      '[1, 2]',
      record({ demo_test_func: 7 }),
      record({ language: 'cobol', question: 'Q4' }),
    ].join('\n');
    const { problems, errors, unknownLanguages } = parseDataset(text);
    expect(problems.map((p) => [p.line, p.language, p.difficulty, p.index])).toEqual([
      [1, 'python', 'easy', 0],
      [5, 'cpp', 'hard', 1],
    ]);
    expect(errors.map(formatLoadError)).toEqual([
      expect.stringMatching(/^line 2: not valid JSON/),
      'line 3: unknown language "cobol"',
      'line 6: missing fields canonical_solution, demo_test_func, full_test_func, language, difficulty',
      'line 7: not a JSON object',
      'line 8: field demo_test_func must be text',
      'line 9: unknown language "cobol"',
    ]);
    expect(unknownLanguages).toEqual({ cobol: 2 });
  });

  it('accepts the common language spellings in any case (issue #17)', () => {
    const spellings: Array<[string, string]> = [
      ['Python3', 'python'], ['py3', 'python'], ['PYTHON', 'python'], ['Python 3', 'python'], ['C++', 'cpp'], ['cplusplus', 'cpp'],
      ['golang', 'go'], ['Go', 'go'], ['Node', 'javascript'], ['node.js', 'javascript'], ['JS', 'javascript'], ['C#', 'csharp'],
      ['cs', 'csharp'], ['TS', 'typescript'], ['Bash', 'shell'], ['sh', 'shell'], ['rs', 'rust'], ['ex', 'elixir'], ['rb', 'ruby'],
      ['kt', 'kotlin'], ['jl', 'julia'], ['rkt', 'racket'], ['R', 'r'],
    ];
    const { problems, errors } = parseDataset(spellings.map(([language], i) => record({ question: `Q${i}`, language })).join('\n'));
    expect(errors).toEqual([]);
    expect(problems.map((p) => p.language)).toEqual(spellings.map(([, id]) => id));
    // Not a language: still refused (and "constructor" does not reach Object.prototype).
    expect(parseDataset(['cobol', 'constructor', 'c'].map((language) => record({ language })).join('\n')).problems).toEqual([]);
  });

  it('names every accepted id with its aliases', () => {
    const text = acceptedLanguages();
    for (const id of LANGUAGE_IDS) expect(text).toMatch(new RegExp(`(^|, )${id}( \\(|,|$)`));
    expect(text).toContain('python (py, python3, py3, python 3)');
    expect(text).toContain('go (golang)');
  });

  it('recognises a JSON array or a pretty-printed object and says JSONL is expected, once', () => {
    const records = Array.from({ length: 26 }, (_, i) => JSON.parse(record({ question: `Q${i}` })) as object);
    const oneLine = parseDataset(JSON.stringify(records));
    const pretty = parseDataset(JSON.stringify(records, null, 2));
    for (const parsed of [oneLine, pretty]) {
      expect(parsed.problems).toEqual([]);
      expect(parsed.errors).toEqual([{ line: 1, message: expect.stringContaining('the file is a JSON array, but JSONL is expected') }]);
      expect(parsed.moreErrors).toBeUndefined();
    }
    const object = parseDataset(JSON.stringify(records[0], null, 2));
    expect(object.errors).toEqual([{ line: 1, message: expect.stringContaining('one JSON object spread over several lines, but JSONL is expected') }]);
    // A JSONL file whose first line is broken still reports line by line and loads the rest.
    const mixed = parseDataset(['{"question": "cut', record()].join('\n'));
    expect(mixed.problems).toHaveLength(1);
    expect(mixed.errors.map(formatLoadError)).toEqual([expect.stringMatching(/^line 1: not valid JSON/)]);
  });

  it('counts warnings past the listed ones with the right plural', () => {
    const bad = new Uint8Array([0xff]);
    const line = new TextEncoder().encode(record().slice(0, -1) + ',"x":"');
    const end = new TextEncoder().encode('"}\n');
    const parser = new DatasetStreamParser();
    for (let i = 0; i < MAX_LISTED_ERRORS + 1; i++) {
      parser.push(line);
      parser.push(bad);
      parser.push(end);
    }
    const { warnings } = parser.finish();
    expect(warnings?.at(-1)?.message).toBe('… and 1 more line with warnings');
  });

  it('gives each problem a stable id from language and question, whatever its line', () => {
    const a = parseDataset(record({ question: 'Same' })).problems[0]!;
    const b = parseDataset(['', record({ question: 'Other' }), record({ question: 'Same' })].join('\n')).problems[1]!;
    expect(a.id).toBe(b.id);
    expect(a.id).toMatch(/^[0-9a-f]{12}$/);
    expect(a.id).toBe(problemId('python', 'Same'));
    expect(problemId('python', 'Same')).not.toBe(problemId('ruby', 'Same'));
    // sha256("python\nSame"), first 12 hex digits, as Python's hashlib computes it.
    expect(problemId('python', 'Same')).toBe('b26d2ca4c2bf');
  });

  it('tolerates a byte-order mark and CRLF line ends', () => {
    const { problems, errors } = parseDataset('\uFEFF' + record() + '\r\n' + record({ question: 'B' }) + '\r\n');
    expect(errors).toEqual([]);
    expect(problems).toHaveLength(2);
  });

  it('filters by language (aliases too), difficulty and a first-N limit', () => {
    const text = [
      record({ question: '1' }), record({ question: '2', language: 'js' }), record({ question: '3', difficulty: 'hard' }),
      record({ question: '4' }), record({ question: '5', language: 'typescript', difficulty: 'hard' }),
    ].join('\n');
    const { problems } = parseDataset(text);
    expect(filterProblems(problems, { languages: ['py'] }).map((p) => p.record.question)).toEqual(['1', '3', '4']);
    expect(filterProblems(problems, { difficulties: ['HARD'] }).map((p) => p.record.question)).toEqual(['3', '5']);
    expect(filterProblems(problems, { languages: ['python'], limit: 2 }).map((p) => p.record.question)).toEqual(['1', '3']);
    expect(filterProblems(problems, { limit: 0 })).toEqual([]);
  });

  it('keeps a subset file\'s problems (Lite) by id: the same question in another file, in any order', () => {
    const { problems } = parseDataset([record({ question: '1' }), record({ question: '2', language: 'typescript' }), record({ question: '3' }), record({ question: '4', language: 'typescript' })].join('\n'));
    // The "Lite file": two of the questions, in another order, one with another difficulty label
    // (ids are hashes of language and question only), and a question the full file lacks.
    const lite = parseDataset([record({ question: '3', difficulty: 'hard' }), record({ question: '2', language: 'typescript' }), record({ question: 'not in full' })].join('\n')).problems;
    const members = subsetMembers(lite);
    expect(members.size).toBe(3);
    expect(filterProblems(problems, { members }).map((p) => p.record.question)).toEqual(['2', '3']);
    expect(filterProblems(problems, { members, languages: ['python'] }).map((p) => p.record.question)).toEqual(['3']);
    expect(filterProblems(problems, { members, limit: 1 }).map((p) => p.record.question)).toEqual(['2']);
    // The same question in another language is another problem.
    expect(filterProblems(problems, { members: subsetMembers(parseDataset(record({ question: '1', language: 'ruby' })).problems) })).toEqual([]);
  });
});

describe('answer sources', () => {
  const { problems } = parseDataset([record({ question: 'A', output: 'own answer' }), record({ question: 'B' })].join('\n'));

  it('canonical submits the reference solution as code', async () => {
    expect(await canonicalModel.answer(problems[0]!)).toEqual({ text: 'S', isCode: true });
  });

  it('replay uses the record\'s own output and says which problem has none', async () => {
    expect(await replayOwnOutputModel.answer(problems[0]!)).toEqual({ text: 'own answer' });
    await expect(replayOwnOutputModel.answer(problems[1]!)).rejects.toThrow(/line 2\) has no "output"/);
  });

  it('replay:<file> matches answers by id when they have ids', async () => {
    const model = replayAnswersModel('a.jsonl', [{ id: problems[1]!.id, output: 'for B' }, { id: problems[0]!.id, output: 'for A' }]);
    expect((await model.answer(problems[0]!)).text).toBe('for A');
    expect((await model.answer(problems[1]!)).text).toBe('for B');
  });

  it('replay:<file> matches by line order when answers carry no ids', async () => {
    const { answers, errors } = parseAnswers('{"output": "first"}\n\n{"output": "second"}\nnot json\n{"id": 3}\n');
    expect(errors).toEqual([expect.stringMatching(/^line 4: not valid JSON/), 'line 5: no "output" text']);
    const model = replayAnswersModel('a.jsonl', answers);
    expect((await model.answer(problems[1]!)).text).toBe('second');
    const short = replayAnswersModel('a.jsonl', answers.slice(0, 1));
    await expect(short.answer(problems[1]!)).rejects.toThrow('no recorded answer on line 2');
  });
});
