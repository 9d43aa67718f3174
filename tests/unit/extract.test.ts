import { describe, expect, it } from 'vitest';
import { extractCode, stripThinking } from '../../src/core/extract';

const compat = (answer: string, language: Parameters<typeof extractCode>[1] = 'python', canonical = '') =>
  extractCode(answer, language, 'compat', canonical).code;

describe('compat extraction (SPEC §3, the official behaviour)', () => {
  it('takes the body of the first tagged block', () => {
    expect(compat('Here:\n```python\ndef f():\n    return 1\n```\nDone.')).toBe('def f():\n    return 1\n');
  });

  it('takes the first block even when its tag is not the language (a text block wins)', () => {
    const answer = '```text\n3\n```\n\n```python\nprint(3)\n```';
    expect(compat(answer)).toBe('3\n');
  });

  it('skips blocks whose body is empty after trimming', () => {
    expect(compat('```python\n   \n```\n```python\nx = 1\n```')).toBe('x = 1\n');
  });

  it('accepts tags of Unicode word characters, digits and underscores', () => {
    expect(compat('```python3\nx = 1\n```')).toBe('x = 1\n');
    expect(compat('```my_lang2\nx = 1\n```')).toBe('x = 1\n');
    expect(compat('```pythön\nx = 1\n```')).toBe('x = 1\n');
  });

  it.each([
    ['c++ tag', '```c++\nint x;\nint y;\n```'],
    ['c# tag', '```c#\nint x;\nint y;\n```'],
    ['a tag followed by a space', '```python \nx = 1\ny = 2\n```'],
    ['an untagged fence', '```\nx = 1\ny = 2\n```'],
    ['CRLF after the tag', '```python\r\nx = 1\r\ny = 2\r\n```'],
  ])('does not match %s, and falls back to the whole answer minus its first line', (_, answer) => {
    const { code, how } = extractCode(answer, 'cpp');
    expect(how).toContain('first line dropped');
    const stripped = answer.trim().slice(3, -3).trim();
    expect(code).toBe(stripped.split('\n').slice(1).join('\n'));
  });

  it('drops the first line of an answer without fences (the official quirk)', () => {
    expect(compat('def f(x):\n    return x + 1')).toBe('    return x + 1');
  });

  it('keeps a single-line answer without fences', () => {
    expect(compat('print(1)')).toBe('print(1)');
  });

  it('gives empty code for an empty answer', () => {
    expect(compat('   ')).toBe('');
  });

  it('strips reasoning up to the last </think>', () => {
    const answer = '<think>try ```python\nwrong()\n``` no</think>more</think>\n```python\nright()\n```';
    expect(compat(answer)).toBe('right()\n');
    expect(stripThinking('a</think>b</think>c')).toBe('c');
    expect(stripThinking('no tags')).toBe('no tags');
  });

  describe('Elixir forces the canonical module name', () => {
    const canonical = 'defmodule Solution do\n  def f, do: 1\nend';
    it('replaces the first and last lines of a defmodule answer', () => {
      expect(compat('```elixir\ndefmodule Mine do\n  def f, do: 2\nend\n```', 'elixir', canonical)).toBe(
        'defmodule Solution do\n  def f, do: 2\nend',
      );
    });
    it('wraps other code, indented by two spaces', () => {
      expect(compat('```elixir\ndef f, do: 2\n```', 'elixir', canonical)).toBe('defmodule Solution do\n  def f, do: 2\n  \nend');
    });
    it('leaves a block with another tag alone', () => {
      expect(compat('```ex\ndef f, do: 2\n```', 'elixir', canonical)).toBe('def f, do: 2\n');
    });
  });
});

describe('strict extraction (ours)', () => {
  const strict = (answer: string, language: Parameters<typeof extractCode>[1] = 'python') => extractCode(answer, language, 'strict').code;

  it('prefers the block tagged with the record language over an earlier text block', () => {
    expect(strict('```text\n3\n```\n```py\nprint(3)\n```')).toBe('print(3)\n');
  });
  it('accepts c++ and c# tags, CRLF and untagged fences', () => {
    expect(strict('```c++\nint x;\n```', 'cpp')).toBe('int x;\n');
    expect(strict('```c#\nint x;\n```', 'csharp')).toBe('int x;\n');
    expect(strict('```python\r\nx = 1\r\n```')).toBe('x = 1\n');
    expect(strict('```\nx = 1\n```')).toBe('x = 1\n');
  });
  it('never drops a real code line of an answer without fences', () => {
    expect(strict('def f(x):\n    return x + 1')).toBe('def f(x):\n    return x + 1');
  });
});
