import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { problemTitle, TITLE_MAX } from '../../src/core/title';

describe('problemTitle', () => {
  it('takes the opening Markdown heading', () => {
    expect(problemTitle('# Merge Overlapping Intervals\n\n## Problem Description\nWrite…')).toBe('Merge Overlapping Intervals');
    expect(problemTitle('\n\n### **LRU** `Cache`\nbody')).toBe('LRU Cache');
  });

  it('else the first sentence, with code ticks dropped and snake_case kept', () => {
    expect(problemTitle('Write a function `merge_intervals` that merges intervals. Then return them.')).toBe('Write a function merge_intervals that merges intervals.');
    expect(problemTitle('Implement a stack\nwith push and pop')).toBe('Implement a stack with push and pop');
    // A heading further down is not the title.
    expect(problemTitle('Solve this.\n# Notes')).toBe('Solve this.');
  });

  it('cuts a long title at a word, with an ellipsis', () => {
    const title = problemTitle(`# ${'word '.repeat(40)}`);
    expect(title.length).toBeLessThanOrEqual(TITLE_MAX);
    expect(title).toMatch(/^word( word)+…$/);
  });

  it('gives every demo problem a distinct, non-empty title', () => {
    const questions = readFileSync(new URL('../../bench-data/demo.jsonl', import.meta.url), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { question: string }).question);
    const titles = questions.map(problemTitle);
    expect(titles.every((t) => t.length > 3 && !t.startsWith('#'))).toBe(true);
    expect(titles[0]).toBe('Merge Overlapping Intervals');
  });
});
