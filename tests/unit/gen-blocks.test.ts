/** The generator's pure parts: tolerant block extraction, mutants, labels, near duplicates, the funnel line. */
import { describe, expect, it } from 'vitest';
import { extractParts, inputLines } from '../../src/gen/blocks';
import { difficultyLabel, nearDuplicate } from '../../src/gen/filters';
import { funnelCounts, summaryLine } from '../../src/gen/funnel';
import { mutants } from '../../src/gen/harness';
import { fill, promptHashes, TEMPLATES } from '../../src/gen/prompts';

const NAMES = ['SOLUTION', 'PUBLIC_INPUTS'];

describe('extractParts', () => {
  it('takes the block under each heading, whatever the fence tag, CRLF or heading style', () => {
    const text = '<think>### SOLUTION\n```\nwrong\n```</think>Sure.\r\n\r\n**Solution:**\r\n```py\r\ndef f(x):\r\n    return x\r\n```\r\n## public inputs\n```\nf(1)\nf(2)\n```\n';
    expect(extractParts(text, NAMES)).toEqual({ parts: { SOLUTION: 'def f(x):\n    return x\n', PUBLIC_INPUTS: 'f(1)\nf(2)\n' } });
  });

  it('takes an unfenced part as written, and blocks in order when there are no headings', () => {
    expect(extractParts('### SOLUTION\ndef f(): pass\n### PUBLIC_INPUTS\n```text\nf()\n```', NAMES)).toEqual({ parts: { SOLUTION: 'def f(): pass\n', PUBLIC_INPUTS: 'f()\n' } });
    expect(extractParts('```python\nA\n```\nthen\n```\nB\n```', NAMES)).toEqual({ parts: { SOLUTION: 'A\n', PUBLIC_INPUTS: 'B\n' } });
  });

  it('names what is missing: prose only, an empty block, a wrong number of blocks', () => {
    expect(extractParts('I would multiply by three.', NAMES)).toEqual({ missing: NAMES });
    expect(extractParts('### SOLUTION\n```\n\n```\n### PUBLIC_INPUTS\n```\nf()\n```', NAMES)).toEqual({ missing: ['SOLUTION'] });
    expect(extractParts('```\nA\n```', NAMES)).toEqual({ missing: NAMES });
  });

  it('stays linear on a hostile response (200 KB of backticks and headings)', () => {
    const started = Date.now();
    extractParts('`'.repeat(200_000) + '\n### SOLUTION\n'.repeat(20_000), NAMES);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('inputLines drops blanks and comment lines', () => {
    expect(inputLines('f(1)\n\n# edge\n  f(2)  \n// js comment\n')).toEqual(['f(1)', 'f(2)']);
  });
});

describe('mutants', () => {
  it('negates a comparison or bumps an integer constant, one edit each', () => {
    const m = mutants('def f(x):\n    return x if x < 10 else 0\n');
    expect(m).toEqual(['def f(x):\n    return x if x >= 10 else 0\n', 'def f(x):\n    return x if x < 11 else 0\n', 'def f(x):\n    return x if x < 10 else 1\n']);
  });

  it('none for code without a comparison or integer constant', () => {
    expect(mutants('def f(x):\n    return x * x\n')).toEqual([]);
  });
});

describe('labels and filters', () => {
  it('difficulty: 0 solved hard, 1 to 5 medium, more easy (the paper, k = 10)', () => {
    expect([0, 1, 5, 6, 10].map(difficultyLabel)).toEqual(['hard', 'medium', 'medium', 'easy', 'easy']);
  });

  it('near duplicates: the index of the earlier question with nearly the same words', () => {
    const q = 'Write a Python function clamp that restricts x to the range lo to hi inclusive and returns it';
    expect(nearDuplicate(q + '.', ['Count vowels in a text', q])).toBe(1);
    expect(nearDuplicate('Write a Python function that counts the vowels of a text ignoring case', [q])).toBe(-1);
  });

  it('the funnel line counts drops per stage in stage order', () => {
    const c = funnelCounts([{ seed: 'a', kept: true }, { seed: 'b', kept: false, stage: 'tests', reason: 'x' }, { seed: 'c', kept: false, stage: 'outputs', reason: 'y' }]);
    expect(c.passed).toEqual({ solution: 3, outputs: 2, tests: 1, statement: 1, filters: 1 });
    expect(summaryLine(c)).toBe('generated: 1 of 3 seeds (dropped: outputs 1, tests 1)');
  });
});

describe('prompts', () => {
  it('fills slots once: seed text that looks like a slot is not expanded', () => {
    expect(fill('solution', { LANG: 'Python', INPUT_STYLE: 'x', SEED: 'print("{LANG}")' })).toContain('print("{LANG}")');
  });

  it('hashes every template', () => {
    expect(Object.keys(promptHashes())).toEqual(expect.arrayContaining(Object.keys(TEMPLATES)));
  });
});
