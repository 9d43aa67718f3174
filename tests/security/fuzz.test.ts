/**
 * Fuzzing the two parsers that take text from anywhere: the JSONL loader (as text and as a byte
 * stream cut at random places) and code extraction from model answers. Random and adversarial
 * input (fast-check): no exception escapes, every failure is a message naming its line, the
 * stream parser agrees with the text parser, and nothing takes quadratic time on hostile input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractCode, stripThinking, type ExtractionMode } from '../../src/core/extract';
import { LANGUAGE_IDS, normalizeLanguage, type LanguageId } from '../../src/contracts';
import { DatasetStreamParser, DuplicateIdError, formatLoadError, MAX_LISTED_ERRORS, parseDataset, parseDatasetStream, type LoadedDataset } from '../../src/core/records';

/** Runs within a fixed time: enough cases to find what is easy to find, bounded for CI. */
const BUDGET = { numRuns: 10_000, interruptAfterTimeLimit: 4_000, markInterruptAsFailure: false } as const;

const FIELDS = ['question', 'canonical_solution', 'demo_test_func', 'full_test_func', 'language', 'difficulty', 'output', 'id'] as const;

/** Values that stress validation: wrong types, odd strings, prototype keys. */
const oddValue = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom('python', 'Python', 'py', 'c++', 'js', 'cobol', '', ' ', '__proto__', 'constructor', 'toString', 'hasOwnProperty', '\u0000', '\uFFFD', 'x'.repeat(300)),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);
const recordLike = fc.dictionary(fc.constantFrom(...FIELDS, '__proto__', 'constructor', 'extra'), oddValue, { maxKeys: 10 });
const validRecord = fc.record({
  question: fc.string(),
  canonical_solution: fc.string(),
  demo_test_func: fc.string(),
  full_test_func: fc.string(),
  language: fc.constantFrom(...LANGUAGE_IDS, 'py', 'C++', 'JS'),
  difficulty: fc.constantFrom('easy', 'medium', 'hard', 'HARD', 'odd'),
});
/** A line: a record (valid or not), broken JSON, junk, or blank. */
const line = fc.oneof(
  validRecord.map((r) => JSON.stringify(r)),
  recordLike.map((r) => JSON.stringify(r)),
  fc.json(),
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 80 }),
  validRecord.map((r) => JSON.stringify(r).slice(0, -3)),
  fc.constantFrom('', ' ', '\r', '[', ']', '{', '}', '{}', '[]', 'null', '"text"', '1e999', '{"__proto__": {"polluted": true}}', '\uFEFF{}'),
);
const jsonl = fc.tuple(fc.array(line, { maxLength: 30 }), fc.constantFrom('\n', '\r\n')).map(([lines, eol]) => lines.join(eol));

function checkDataset(d: LoadedDataset, lineCount: number): void {
  for (const e of [...d.errors, ...(d.warnings ?? [])]) {
    expect(Number.isInteger(e.line) && e.line >= 1 && e.line <= lineCount).toBe(true);
    expect(typeof e.message).toBe('string');
    expect(e.message.length).toBeGreaterThan(0);
    expect(formatLoadError(e)).toMatch(/^line \d+: ./);
  }
  for (const p of d.problems) {
    expect(normalizeLanguage(p.language)).toBe(p.language);
    expect(typeof p.id).toBe('string');
    expect(p.id.length).toBeGreaterThan(0);
  }
  // Every record its own id, whatever the file repeats.
  expect(new Set(d.problems.map((p) => p.id)).size).toBe(d.problems.length);
  const lines = new Set(d.problems.map((p) => p.line));
  for (const g of d.duplicates) {
    expect(g.lines.length).toBeGreaterThan(1);
    for (const l of g.lines) expect(lines.has(l)).toBe(true);
  }
  for (const [language, n] of Object.entries(d.unknownLanguages)) {
    expect(typeof language).toBe('string');
    expect(n).toBeGreaterThan(0);
  }
  // Nothing leaked into Object.prototype through a "__proto__" key.
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

/** Feeds bytes to the stream parser in the given chunk sizes. */
function parseInChunks(bytes: Uint8Array, sizes: number[]): LoadedDataset {
  const parser = new DatasetStreamParser();
  let at = 0;
  let i = 0;
  while (at < bytes.length) {
    const size = Math.max(1, sizes.length ? sizes[i++ % sizes.length]! : bytes.length);
    parser.push(bytes.subarray(at, at + size));
    at += size;
  }
  return parser.finish();
}

const comparable = (d: LoadedDataset) => ({
  problems: d.problems.map((p) => [p.line, p.id, p.language, p.difficulty, p.record]),
  errors: d.errors,
  unknownLanguages: { ...d.unknownLanguages },
  duplicates: d.duplicates,
});

/** The one content error that stops a load: two records carrying the same own id. */
function orClash<T>(parse: () => T): T | { clash: string } {
  try {
    return parse();
  } catch (e) {
    expect(e).toBeInstanceOf(DuplicateIdError);
    expect((e as DuplicateIdError).lines[0]).toBeLessThan((e as DuplicateIdError).lines[1]);
    return { clash: (e as Error).message };
  }
}
const isClash = (v: object): v is { clash: string } => 'clash' in v;

describe('fuzz: the JSONL loader', () => {
  it('never throws on random lines, and names the line of every problem', () => {
    fc.assert(
      fc.property(jsonl, (text) => {
        const d = orClash(() => parseDataset(text));
        if (isClash(d)) return;
        checkDataset(d, text.split('\n').length);
        expect(d.problems.length + d.errors.length).toBeLessThanOrEqual(text.split('\n').length);
      }),
      BUDGET,
    );
  });

  it('never throws on random bytes, streamed in random chunks', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.array(fc.integer({ min: 1, max: 64 }), { maxLength: 8 }), (bytes, sizes) => {
        const d = orClash(() => parseInChunks(bytes, sizes));
        if (isClash(d)) return;
        let newlines = 1;
        for (const b of bytes) if (b === 0x0a) newlines++;
        checkDataset(d, newlines);
      }),
      BUDGET,
    );
  });

  it('parses a stream exactly as the same text, wherever the chunks are cut (multi-byte characters too)', () => {
    fc.assert(
      fc.property(jsonl, fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 6 }), (text, sizes) => {
        const bytes = new TextEncoder().encode(text);
        const streamed = orClash(() => parseInChunks(bytes, sizes));
        const whole = orClash(() => parseDataset(text));
        expect(isClash(streamed) ? streamed : comparable(streamed)).toEqual(isClash(whole) ? whole : comparable(whole));
      }),
      BUDGET,
    );
  });

  it('reports invalid UTF-8 as a warning on its line and still loads the record', () => {
    fc.assert(
      fc.property(fc.array(validRecord, { minLength: 1, maxLength: 5 }), fc.nat(), fc.constantFrom([0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf8, 0x88]), (records, pick, bad) => {
        const lines = records.map((r) => new TextEncoder().encode(JSON.stringify({ ...r, question: `«${r.question}»` })));
        const target = pick % lines.length;
        const at = lines[target]!.indexOf(0xab) - 1; // the first byte of «
        const broken = new Uint8Array([...lines[target]!.subarray(0, at), ...bad, ...lines[target]!.subarray(at + 2)]);
        lines[target] = broken;
        const joined = lines.flatMap((l, i) => (i ? [0x0a, ...l] : [...l]));
        const d = parseInChunks(new Uint8Array(joined), [7]);
        expect(d.warnings?.map(formatLoadError)).toEqual([`line ${target + 1}: invalid UTF-8 bytes, replaced with U+FFFD (�)`]);
        expect(d.problems.find((p) => p.line === target + 1)?.record.question).toContain('\uFFFD');
      }),
      { ...BUDGET, numRuns: 300 },
    );
  });

  it('names files that are not UTF-8 JSONL at all', () => {
    const first = (bytes: number[]) => formatLoadError(parseInChunks(new Uint8Array([...bytes, 0x41, 0x0a, 0x42]), []).errors[0]!);
    expect(first([0xff, 0xfe])).toBe('line 1: the file is UTF-16 text (it starts with a UTF-16 byte order mark); JSONL must be UTF-8');
    expect(first([0xfe, 0xff])).toMatch(/UTF-16/);
    expect(first([0x1f, 0x8b, 0x08])).toBe('line 1: the file is gzip-compressed; decompress it first');
    expect(first([0x50, 0x4b, 0x03, 0x04])).toBe('line 1: the file is a zip archive; extract the .jsonl file first');
  });

  it('skips a line longer than the limit without holding it, and goes on', () => {
    const parser = new DatasetStreamParser({ maxLineBytes: 1000 });
    const good = JSON.stringify({ question: 'Q', canonical_solution: 'S', demo_test_func: 'D', full_test_func: 'F', language: 'python', difficulty: 'easy' });
    parser.push(new TextEncoder().encode(`${good}\n`));
    for (let i = 0; i < 50; i++) parser.push(new Uint8Array(100).fill(0x61));
    parser.push(new TextEncoder().encode(`\n${good}\n`));
    const d = parser.finish();
    expect(d.problems.map((p) => p.line)).toEqual([1, 3]);
    expect(d.errors.map(formatLoadError)).toEqual(['line 2: longer than 0 MB: skipped']);
  });

  it('lists at most MAX_LISTED_ERRORS errors and counts the rest', () => {
    const d = parseDataset(Array.from({ length: MAX_LISTED_ERRORS + 25 }, () => '{bad').join('\n'));
    expect(d.errors).toHaveLength(MAX_LISTED_ERRORS);
    expect(d.moreErrors).toBe(25);
  });

  it('reads a stream with progress, gives the event loop turns, and stops when aborted', async () => {
    const text = Array.from({ length: 3000 }, (_, i) =>
      JSON.stringify({ question: `Q${i}`, canonical_solution: 'S', demo_test_func: 'D', full_test_func: 'F', language: 'python', difficulty: 'easy' }),
    ).join('\n');
    const bytes = new TextEncoder().encode(text);
    const stream = () => new Blob([bytes]).stream();
    const progress: number[] = [];
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const d = await parseDatasetStream(stream(), { onProgress: (p) => progress.push(p.bytes), sliceMs: 0 });
    clearInterval(ticker);
    expect(d.problems).toHaveLength(3000);
    expect(d.bytes).toBe(bytes.length);
    expect(progress.at(-1)).toBe(bytes.length);
    expect(turns).toBeGreaterThan(0);
    const controller = new AbortController();
    controller.abort();
    await expect(parseDatasetStream(stream(), { signal: controller.signal })).rejects.toThrow(/abort/i);
  });
});

// ── code extraction ──────────────────────────────────────────────────────────────────────────────

/** The strict rule as it was written with one regular expression (quadratic on some input). */
const REFERENCE_STRICT_BLOCK = /```[ \t]*([^\s`]*)[^\n]*\n([\s\S]*?)```/g;
function referenceStrictBlocks(answer: string): Array<[string, string]> {
  return [...stripThinking(answer).replace(/\r\n/g, '\n').matchAll(REFERENCE_STRICT_BLOCK)].map((m) => [m[1]!, m[2]!]);
}

/** Answers built from the pieces that matter to extraction. */
const answerPiece = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('```', '```python', '```py', '```c++', '```js', '``` python extra', '```\t', '`', '``', '\n', '\r\n', ' ', '\t', '</think>', '<think>', 'x', 'def f():', '    return 1', 'end', 'defmodule', '````') },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 3 }) },
);
const answer = fc.array(answerPiece, { maxLength: 40 }).map((parts) => parts.join(''));
const language = fc.constantFrom<LanguageId>(...LANGUAGE_IDS);
const mode = fc.constantFrom<ExtractionMode>('compat', 'strict');

describe('fuzz: code extraction', () => {
  it('never throws, always says how it found the code', () => {
    fc.assert(
      fc.property(fc.oneof(answer, fc.string(), fc.string({ unit: 'binary' })), language, mode, fc.string({ maxLength: 40 }), (text, lang, m, canonical) => {
        const { code, how } = extractCode(text, lang, m, canonical);
        expect(typeof code).toBe('string');
        expect(how.length).toBeGreaterThan(0);
      }),
      BUDGET,
    );
  });

  it('strict mode finds the same blocks as its one-expression definition', () => {
    fc.assert(
      fc.property(answer, (text) => {
        const blocks = referenceStrictBlocks(text);
        const { code, how } = extractCode(text, 'python', 'strict');
        const bodies = blocks.map(([, body]) => body).filter((b) => b.trim() !== '');
        if (bodies.length === 0) expect(how).toBe('strict: no fenced block, whole answer');
        else expect(bodies).toContain(code);
      }),
      BUDGET,
    );
  });

  it('takes linear time on adversarial answers (no regular-expression blow-up)', () => {
    const n = 200_000;
    const adversarial = [
      '`'.repeat(n),
      '```' + 'a'.repeat(n),
      '```a\n'.repeat(n / 5),
      ('```x ' + 'y'.repeat(50)).repeat(n / 55),
      '```python\n' + 'x = 1\n'.repeat(n / 6),
      '</think>'.repeat(n / 8),
      '``a\n'.repeat(n / 4),
      ('```' + ' '.repeat(100) + '\n').repeat(n / 104),
      '```' + '\u00e9'.repeat(n),
      ('```py\n' + '`'.repeat(2)).repeat(n / 8),
    ];
    for (const text of adversarial) {
      for (const m of ['compat', 'strict'] as const) {
        const started = performance.now();
        extractCode(text, 'python', m, 'defmodule X do\nend');
        expect(performance.now() - started, `${m} on ${JSON.stringify(text.slice(0, 20))}…`).toBeLessThan(500);
      }
    }
  });
});
