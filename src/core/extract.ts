/** Turning a model answer into code (SPEC §2–3). */
import { normalizeLanguage, type LanguageId } from '../contracts';

export type ExtractionMode = 'compat' | 'strict';

export interface Extraction {
  code: string;
  /** How the code was found, for the problem view. */
  how: string;
}

/** Removes everything up to and including the last `</think>` (reasoning models). */
export function stripThinking(answer: string): string {
  const at = answer.lastIndexOf('</think>');
  return at === -1 ? answer : answer.slice(at + '</think>'.length);
}

// Official pattern: ``` + one or more word characters + LF, body up to the next ```.
const COMPAT_BLOCK = /```([\p{L}\p{N}_]+)\n([\s\S]*?)```/gu;
// Strict: any tag (c++, c#, none), optional trailing text on the fence line, CRLF. The blocks are
// those of /```[ \t]*([^\s`]*)[^\n]*\n([\s\S]*?)```/g, found by strictBlocks() in linear time (that
// expression backtracks quadratically on a long fence line without a newline, e.g. 200 KB of
// backticks: a hostile answer could freeze the page).
const STRICT_TAG = /^[ \t]*([^\s`]*)/;
const NON_CODE_TAGS = new Set(['text', 'txt', 'plaintext', 'output', 'console', 'markdown', 'md', 'log']);

/**
 * Extracts code from an answer. compat = the official client's behaviour, quirks included;
 * strict = ours, clearly labelled. `canonicalSolution` is needed for Elixir's module rewrap.
 */
export function extractCode(
  rawAnswer: string,
  language: LanguageId,
  mode: ExtractionMode = 'compat',
  canonicalSolution = '',
): Extraction {
  const answer = stripThinking(rawAnswer);
  return mode === 'strict' ? extractStrict(answer, language) : extractCompat(answer, language, canonicalSolution);
}

function extractCompat(answer: string, language: LanguageId, canonical: string): Extraction {
  for (const m of answer.matchAll(COMPAT_BLOCK)) {
    const [, tag, body] = m;
    if (body!.trim() === '') continue;
    const how = `first fenced block tagged "${tag}"`;
    if (language === 'elixir' && tag === 'elixir') return { code: forceElixirModule(body!, canonical), how };
    return { code: body!, how };
  }
  let text = answer.trim();
  if (text.startsWith('```')) text = text.slice(3);
  if (text.endsWith('```')) text = text.slice(0, -3);
  text = text.trim();
  const lines = text.split('\n');
  let how = 'no fenced block matched: whole answer';
  if (lines.length > 1) {
    text = lines.slice(1).join('\n');
    how = 'no fenced block matched: whole answer, first line dropped (official rule)';
  }
  if (language === 'elixir') text = forceElixirModule(text, canonical);
  return { code: text, how };
}

/**
 * Elixir (SPEC §3.2): the tests call the canonical module name, so force it: replace the first and
 * last lines of a `defmodule … end` answer with the canonical ones, or wrap other code in them.
 */
function forceElixirModule(code: string, canonical: string): string {
  const canonLines = canonical.trim().split('\n');
  if (canonLines.length < 2) return code;
  const first = canonLines[0]!;
  const last = canonLines[canonLines.length - 1]!;
  const trimmed = code.trim();
  if (trimmed.startsWith('defmodule') && trimmed.endsWith('end')) {
    const lines = trimmed.split('\n');
    if (lines.length >= 2) return [first, ...lines.slice(1, -1), last].join('\n');
  }
  const indented = code.split('\n').map((l) => '  ' + l).join('\n');
  return [first, indented, last].join('\n');
}

/** The fenced blocks of the strict rule, in order (see STRICT_TAG). */
function strictBlocks(text: string): Array<{ tag: string; body: string }> {
  const blocks: Array<{ tag: string; body: string }> = [];
  let from = 0;
  for (;;) {
    const open = text.indexOf('```', from);
    if (open === -1) break;
    const newline = text.indexOf('\n', open + 3);
    if (newline === -1) break; // no later fence has a newline after it either
    const close = text.indexOf('```', newline + 1);
    if (close === -1) break; // nor a closing fence
    const tag = STRICT_TAG.exec(text.slice(open + 3, newline))![1]!;
    blocks.push({ tag, body: text.slice(newline + 1, close) });
    from = close + 3;
  }
  return blocks;
}

function extractStrict(answer: string, language: LanguageId): Extraction {
  const normalized = answer.replace(/\r\n/g, '\n');
  const blocks = strictBlocks(normalized)
    .map((b) => ({ tag: b.tag.toLowerCase(), body: b.body }))
    .filter((b) => b.body.trim() !== '');
  const ofLanguage = blocks.find((b) => b.tag && normalizeLanguage(b.tag) === language);
  if (ofLanguage) return { code: ofLanguage.body, how: `strict: first block tagged ${language}` };
  const codeLike = blocks.find((b) => !NON_CODE_TAGS.has(b.tag));
  if (codeLike) return { code: codeLike.body, how: `strict: first code block (tag "${codeLike.tag || 'none'}")` };
  if (blocks[0]) return { code: blocks[0].body, how: `strict: first block (tag "${blocks[0].tag}")` };
  // No closed block: drop only a lone opening fence line, never a real code line.
  let text = normalized.trim();
  if (text.startsWith('```')) text = text.slice(text.indexOf('\n') + 1 || text.length);
  if (text.endsWith('```')) text = text.slice(0, -3);
  return { code: text.trim(), how: 'strict: no fenced block, whole answer' };
}
