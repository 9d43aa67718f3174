/** Loading AutoCodeBench JSONL records (SPEC §1) with per-line error reporting. */
import { normalizeLanguage, type BenchRecord, type LanguageId, type Problem } from '../contracts';
import { AMBIGUOUS_ID, IdAssigner, ownId, problemId } from './ids';

export const DIFFICULTIES = ['easy', 'medium', 'hard'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export interface LoadError {
  line: number;
  message: string;
}

export interface LoadedDataset {
  problems: Problem[];
  errors: LoadError[];
  /** Language ids that are not one of the 20, with how many records used each. */
  unknownLanguages: Record<string, number>;
  /** Lines that loaded after a repair (invalid UTF-8 bytes replaced by U+FFFD). */
  warnings?: LoadError[];
  /** Errors past the first MAX_LISTED_ERRORS: counted, not listed. */
  moreErrors?: number;
  /** Questions (same language and question) that more than one record holds: their lines, in order. */
  duplicates: DuplicateGroup[];
}

export interface DuplicateGroup {
  /** The question's content id (problemId). */
  contentId: string;
  /** 1-based lines of the records that hold it; the first is the first copy. */
  lines: number[];
}

/** Two records claim the same own id (`id` or `task_id`): the dataset cannot be loaded. */
export class DuplicateIdError extends Error {
  override name = 'DuplicateIdError';
  constructor(readonly id: string, readonly lines: [number, number]) {
    super(`duplicate id "${clip(id)}": lines ${lines[0]} and ${lines[1]} both carry it (a record's id or task_id must be unique)`);
  }
}

/** At most this many errors (and as many warnings) are kept with their messages. */
export const MAX_LISTED_ERRORS = 1000;

const REQUIRED = ['question', 'canonical_solution', 'demo_test_func', 'full_test_func', 'language', 'difficulty'] as const;

/** Checks one parsed line; returns the problem or a message naming what is wrong. */
export function validateRecord(value: unknown): { record: BenchRecord; language: LanguageId } | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const obj = value as Record<string, unknown>;
  const missing = REQUIRED.filter((f) => obj[f] === undefined || obj[f] === null);
  if (missing.length) return `missing field${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`;
  const notString = REQUIRED.filter((f) => typeof obj[f] !== 'string');
  if (notString.length) return `field${notString.length > 1 ? 's' : ''} ${notString.join(', ')} must be text`;
  if (obj.output !== undefined && obj.output !== null && typeof obj.output !== 'string') return 'field output must be text';
  const language = normalizeLanguage(obj.language as string);
  if (!language) return `unknown language "${clip(obj.language as string)}"`;
  return { record: obj as BenchRecord, language };
}

/** Keeps a quoted value short in a message. */
function clip(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

const WHOLE_DOCUMENT = {
  array: "the file is a JSON array, but JSONL is expected: one JSON object per line, no enclosing [ ] (convert it with: jq -c '.[]' file.json > file.jsonl)",
  object: 'the file is one JSON object spread over several lines, but JSONL is expected: each record on a single line (convert it with: jq -c . file.json > file.jsonl)',
} as const;

/** Collects problems, errors and warnings line by line (shared by the text and stream parsers). */
class DatasetBuilder {
  readonly problems: Problem[] = [];
  readonly errors: LoadError[] = [];
  readonly warnings: LoadError[] = [];
  readonly unknownLanguages: Record<string, number> = Object.create(null) as Record<string, number>;
  private moreErrors = 0;
  private moreWarnings = 0;
  /** Per problem: its content id, and whether it carries its own id. */
  private readonly contentIds: string[] = [];
  private readonly hasOwn: boolean[] = [];
  /** Own id → the line that carries it. */
  private readonly ownIds = new Map<string, number>();
  /** The first non-blank line, when it shows the file is one JSON document rather than JSONL. */
  private wholeDocument: { line: number; kind: 'array' | 'object' } | null = null;
  private seenContent = false;

  error(line: number, message: string): void {
    if (this.errors.length < MAX_LISTED_ERRORS) this.errors.push({ line, message });
    else this.moreErrors++;
  }

  warn(line: number, message: string): void {
    if (this.warnings.length < MAX_LISTED_ERRORS) this.warnings.push({ line, message });
    else this.moreWarnings++;
  }

  /** One line of text (without its newline). */
  line(raw: string, line: number): void {
    const trimmed = raw.trim();
    if (trimmed === '') return;
    const first = !this.seenContent;
    this.seenContent = true;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      // An array that does not close on its line, or a lone "{": a pretty-printed JSON array or object.
      if (first && (trimmed[0] === '[' || trimmed === '{')) this.wholeDocument = { line, kind: trimmed[0] === '[' ? 'array' : 'object' };
      this.error(line, `not valid JSON (${clip((e as Error).message, 120)})`);
      return;
    }
    if (first && Array.isArray(value)) this.wholeDocument = { line, kind: 'array' };
    const checked = validateRecord(value);
    if (typeof checked === 'string') {
      this.error(line, checked);
      const lang = (value as { language?: unknown })?.language;
      if (checked.startsWith('unknown language') && typeof lang === 'string') {
        this.unknownLanguages[lang] = (this.unknownLanguages[lang] ?? 0) + 1;
      }
      return;
    }
    const { record, language } = checked;
    const own = ownId(record);
    if (own !== undefined && AMBIGUOUS_ID.test(own)) {
      this.error(line, `id "${clip(own)}" ends like a sample and turn key (#s<n>#t<n>): choose another`);
      return;
    }
    if (own !== undefined) {
      const first = this.ownIds.get(own);
      if (first !== undefined) throw new DuplicateIdError(own, [first, line]);
      this.ownIds.set(own, line);
    }
    this.contentIds.push(problemId(language, record.question));
    this.hasOwn.push(own !== undefined);
    this.problems.push({
      // Final ids are given in result(), once every record's own id is known.
      id: own ?? '',
      index: this.problems.length,
      line,
      language,
      difficulty: record.difficulty.trim().toLowerCase(),
      record,
    });
  }

  /** Gives records without an own id theirs (IdAssigner) and groups the repeated questions. */
  private assignIds(): DuplicateGroup[] {
    const assigner = new IdAssigner(this.ownIds.keys());
    const lines = new Map<string, number[]>();
    this.problems.forEach((p, i) => {
      const contentId = this.contentIds[i]!;
      if (!this.hasOwn[i]) p.id = assigner.next(contentId);
      const list = lines.get(contentId);
      if (list) list.push(p.line);
      else lines.set(contentId, [p.line]);
    });
    return [...lines].filter(([, l]) => l.length > 1).map(([contentId, l]) => ({ contentId, lines: l }));
  }

  result(): LoadedDataset {
    const duplicates = this.assignIds();
    // Nothing loaded from a JSON document: one error that says what the file is, not one per line.
    if (this.problems.length === 0 && this.wholeDocument) {
      const { line, kind } = this.wholeDocument;
      this.errors.splice(0, this.errors.length, { line, message: WHOLE_DOCUMENT[kind] });
      this.moreErrors = 0;
    }
    const dataset: LoadedDataset = { problems: this.problems, errors: this.errors, unknownLanguages: { ...this.unknownLanguages }, duplicates };
    if (this.warnings.length) dataset.warnings = this.warnings;
    if (this.moreWarnings) this.warnings.push({ line: this.warnings.at(-1)!.line, message: `… and ${this.moreWarnings} more ${this.moreWarnings === 1 ? 'line' : 'lines'} with warnings` });
    if (this.moreErrors) dataset.moreErrors = this.moreErrors;
    return dataset;
  }
}

/**
 * Parses JSONL text. A bad line is reported as `line N: <what is wrong>`; the rest still loads.
 * Throws DuplicateIdError when two records carry the same own id.
 */
export function parseDataset(text: string): LoadedDataset {
  const builder = new DatasetBuilder();
  text.replace(/^\uFEFF/, '').split('\n').forEach((raw, i) => builder.line(raw, i + 1));
  return builder.result();
}

// ── streaming ─────────────────────────────────────────────────────────────────────────────────

export interface StreamProgress {
  /** Bytes read so far. */
  bytes: number;
  /** Lines parsed so far. */
  lines: number;
  /** Problems loaded so far. */
  problems: number;
}

export interface DatasetStreamOptions {
  onProgress?: (progress: StreamProgress) => void;
  signal?: AbortSignal;
  /**
   * Give the event loop a turn after this many milliseconds of parsing (default 12), so that a
   * page stays responsive while a 100 MB file loads.
   */
  sliceMs?: number;
  /** A longer line is skipped with an error instead of being held in memory (default 64 MB). */
  maxLineBytes?: number;
}

/** Total bytes read from the stream, beside what a text parse returns. */
export interface StreamedDataset extends LoadedDataset {
  bytes: number;
}

const NEWLINE = 0x0a;
const DEFAULT_MAX_LINE_BYTES = 64 << 20;

/** Recognises files that are not UTF-8 JSONL at all, from their first bytes. */
function sniffFormat(head: Uint8Array): string | null {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (starts(0xff, 0xfe) || starts(0xfe, 0xff)) return 'the file is UTF-16 text (it starts with a UTF-16 byte order mark); JSONL must be UTF-8';
  if (starts(0x1f, 0x8b)) return 'the file is gzip-compressed; decompress it first';
  if (starts(0x50, 0x4b, 0x03, 0x04)) return 'the file is a zip archive; extract the .jsonl file first';
  return null;
}

/**
 * Parses JSONL from a byte stream, line by line, without holding the whole text: lines are cut at
 * newline bytes (never inside a UTF-8 sequence), each is decoded on its own, and a line with
 * invalid UTF-8 loads with U+FFFD in place of the bad bytes and a warning naming it. Progress is
 * reported as it goes, and the event loop gets a turn every `sliceMs`.
 */
export class DatasetStreamParser {
  private readonly builder = new DatasetBuilder();
  // ignoreBOM: a byte-order mark is dropped at the start of the file only (as parseDataset does).
  private readonly strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private readonly lenient = new TextDecoder('utf-8', { ignoreBOM: true });
  private readonly maxLineBytes: number;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private oversized = false;
  private lineNumber = 1;
  private stopped = false;
  bytes = 0;

  constructor(options: Pick<DatasetStreamOptions, 'maxLineBytes'> = {}) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  get progress(): StreamProgress {
    return { bytes: this.bytes, lines: this.lineNumber - 1, problems: this.builder.problems.length };
  }

  push(chunk: Uint8Array): void {
    if (this.bytes === 0 && chunk.length) {
      const wrong = sniffFormat(chunk);
      if (wrong) {
        this.builder.error(1, wrong);
        this.stopped = true;
      }
    }
    this.bytes += chunk.length;
    if (this.stopped) return;
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(NEWLINE, start);
      if (end === -1) break;
      if (this.pending.length === 0 && !this.oversized && end - start <= this.maxLineBytes) {
        // A whole line inside this chunk: decoded in place, no copy.
        this.endLine(chunk.subarray(start, end));
      } else {
        this.take(chunk.subarray(start, end), false);
        this.endLine();
      }
      start = end + 1;
    }
    // The start of a line that continues in the next chunk: copied, the stream may reuse its buffer.
    if (start < chunk.length) this.take(chunk.subarray(start), true);
  }

  finish(): StreamedDataset {
    if (!this.stopped && (this.pendingBytes > 0 || this.oversized)) this.endLine();
    return { ...this.builder.result(), bytes: this.bytes };
  }

  private take(part: Uint8Array, copy: boolean): void {
    if (this.oversized || part.length === 0) return;
    if (this.pendingBytes + part.length > this.maxLineBytes) {
      this.oversized = true;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    this.pending.push(copy ? part.slice() : part);
    this.pendingBytes += part.length;
  }

  private endLine(whole?: Uint8Array): void {
    const line = this.lineNumber++;
    if (this.oversized) {
      this.builder.error(line, `longer than ${Math.round(this.maxLineBytes / (1 << 20))} MB: skipped`);
      this.oversized = false;
      return;
    }
    const bytes = whole ?? (this.pending.length === 1 ? this.pending[0]! : concat(this.pending, this.pendingBytes));
    this.pending = [];
    this.pendingBytes = 0;
    let text: string;
    try {
      text = this.strict.decode(bytes);
    } catch {
      text = this.lenient.decode(bytes);
      this.builder.warn(line, 'invalid UTF-8 bytes, replaced with U+FFFD (�)');
    }
    this.builder.line(line === 1 && text.startsWith('\uFEFF') ? text.slice(1) : text, line);
  }
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
/** Parsing between two checks of the clock: about a millisecond's work. */
const SLICE_BYTES = 64 << 10;

/**
 * Parses a JSONL byte stream (a File's or a fetch Response's body, or any async iterable of
 * chunks). Rejects with an AbortError when `signal` aborts, and with DuplicateIdError when two
 * records carry the same own id; every other problem with the content is a line error or warning.
 */
export async function parseDatasetStream(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  options: DatasetStreamOptions = {},
): Promise<StreamedDataset> {
  const parser = new DatasetStreamParser(options);
  const sliceMs = options.sliceMs ?? 12;
  let sliceStart = performance.now();
  const reader = 'getReader' in source ? source.getReader() : null;
  const iterator = reader ? null : (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  try {
    options.onProgress?.(parser.progress);
    for (;;) {
      if (options.signal?.aborted) throw options.signal.reason instanceof Error ? options.signal.reason : new DOMException('Loading was cancelled', 'AbortError');
      const { done, value } = reader ? await reader.read() : await iterator!.next();
      if (done) break;
      // Big chunks are parsed a slice at a time, so that no single task runs long.
      for (let at = 0; at < value.length; at += SLICE_BYTES) {
        parser.push(value.subarray(at, Math.min(value.length, at + SLICE_BYTES)));
        if (performance.now() - sliceStart > sliceMs) {
          options.onProgress?.(parser.progress);
          await nextTurn();
          sliceStart = performance.now();
        }
      }
      options.onProgress?.(parser.progress);
    }
  } finally {
    if (reader) {
      try {
        await reader.cancel();
      } catch {
        // Already closed.
      }
      reader.releaseLock();
    } else {
      await iterator?.return?.();
    }
  }
  const result = parser.finish();
  options.onProgress?.(parser.progress);
  return result;
}

export function formatLoadError(e: LoadError): string {
  return `line ${e.line}: ${e.message}`;
}

export interface ProblemFilter {
  languages?: readonly string[];
  difficulties?: readonly string[];
  /** Keep only these problem ids (a subset's members, e.g. Lite: subsetMembers). */
  members?: ReadonlySet<string>;
  /** Keep only the first N after the other filters. */
  limit?: number;
}

/**
 * The problems a subset file (e.g. autocodebench_lite.jsonl) holds, by id: records carry no Lite
 * flag, and ids are hashes of language and question, equal in every copy. The CLI's --lite and
 * the page's "Lite only" both use this one definition.
 */
export function subsetMembers(subset: readonly Problem[]): Set<string> {
  return new Set(subset.map((p) => p.id));
}

export function filterProblems(problems: readonly Problem[], filter: ProblemFilter): Problem[] {
  const langs = filter.languages?.length ? new Set(filter.languages.map((l) => normalizeLanguage(l) ?? l)) : null;
  const diffs = filter.difficulties?.length ? new Set(filter.difficulties.map((d) => d.toLowerCase())) : null;
  const members = filter.members;
  const kept = problems.filter((p) => (!langs || langs.has(p.language)) && (!diffs || diffs.has(p.difficulty)) && (!members || members.has(p.id)));
  return filter.limit !== undefined && filter.limit >= 0 ? kept.slice(0, filter.limit) : kept;
}

// ── repeated questions ────────────────────────────────────────────────────────────────────────

/** What to do with records that repeat a question: evaluate every one, or only the first copy. */
export type DuplicateChoice = 'keep-all' | 'keep-first';
export const DUPLICATE_CHOICES: readonly DuplicateChoice[] = ['keep-all', 'keep-first'];

/** "4 and 9", "5, 12 and 20"; a long list is cut: "1, 5, 9, 12, 20, … (3000 copies)". */
function listLines(lines: readonly number[]): string {
  if (lines.length > 6) return `${lines.slice(0, 5).join(', ')}, … (${lines.length} copies)`;
  return lines.length === 2 ? `${lines[0]} and ${lines[1]}` : `${lines.slice(0, -1).join(', ')} and ${lines.at(-1)}`;
}

/** "2 questions appear more than once: lines 4 and 9; lines 5, 12 and 20" (the first `shown` groups). */
export function formatDuplicates(groups: readonly DuplicateGroup[], shown = 5): string {
  const n = groups.length;
  const listed = groups.slice(0, shown).map((g) => `lines ${listLines(g.lines)}`).join('; ');
  return `${n} question${n === 1 ? ' appears' : 's appear'} more than once: ${listed}${n > shown ? `; … and ${n - shown} more` : ''}`;
}

/** Records that are later copies of a question (dropped by keep-first). */
export function laterCopies(groups: readonly DuplicateGroup[]): Set<number> {
  return new Set(groups.flatMap((g) => g.lines.slice(1)));
}

/** The problems a choice keeps: all of them, or each question's first copy (positions unchanged). */
export function applyDuplicateChoice(problems: readonly Problem[], groups: readonly DuplicateGroup[], choice: DuplicateChoice): Problem[] {
  if (choice === 'keep-all' || groups.length === 0) return [...problems];
  const later = laterCopies(groups);
  return problems.filter((p) => !later.has(p.line));
}
