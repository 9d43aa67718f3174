/**
 * Tolerant extraction of the parts a generator prompt asks for (`### NAME` + one fenced block):
 * any fence tag or none, CRLF, a heading in bold or with a colon, a part written without a fence,
 * or no headings at all but one block per part in order. Scans with indexOf, never a backtracking
 * expression: a hostile response cannot stall the generator.
 */
import { stripThinking } from '../core/extract';

interface Fence {
  start: number;
  end: number;
  body: string;
}

/** Fenced blocks in order: ``` + rest of line, body to the next ``` at a line start (or the end). */
export function fencedBlocks(text: string): Fence[] {
  const out: Fence[] = [];
  let at = 0;
  for (;;) {
    const open = text.indexOf('```', at);
    if (open === -1) return out;
    const lineEnd = text.indexOf('\n', open);
    if (lineEnd === -1) return out;
    let close = text.indexOf('\n```', lineEnd - 1);
    const bodyEnd = close === -1 ? text.length : close + 1;
    const body = text.slice(lineEnd + 1, bodyEnd).replace(/\r$/gm, '');
    close = close === -1 ? text.length : text.indexOf('\n', close + 4);
    out.push({ start: open, end: close === -1 ? text.length : close, body });
    at = close === -1 ? text.length : close;
  }
}

/** Where each heading line naming a part starts and ends. */
function headings(text: string, names: readonly string[]): Array<{ name: string; start: number; end: number }> {
  const found: Array<{ name: string; start: number; end: number }> = [];
  let lineStart = 0;
  while (lineStart < text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    const line = text.slice(lineStart, lineEnd).trim().replace(/^#+\s*|^\*\*|\*\*$|:$/g, '').replace(/\*\*|:$/g, '').trim().toUpperCase();
    const name = names.find((n) => line === n || line === n.replace(/_/g, ' '));
    if (name && !found.some((f) => f.name === name)) found.push({ name, start: lineStart, end: lineEnd });
    lineStart = lineEnd + 1;
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The named parts, or the names that could not be found. */
export function extractParts(raw: string, names: readonly string[]): { parts: Record<string, string> } | { missing: string[] } {
  const text = stripThinking(raw).replace(/\r\n/g, '\n');
  const heads = headings(text, names);
  const fences = fencedBlocks(text);
  const parts: Record<string, string> = {};
  if (heads.length) {
    heads.forEach((h, i) => {
      const stop = heads[i + 1]?.start ?? text.length;
      const fence = fences.find((f) => f.start >= h.end && f.start < stop);
      // No fence under the heading: the text itself, minus stray fence lines.
      const body = fence ? fence.body : text.slice(h.end, stop).replace(/^```.*$/gm, '').replace(/^\s*\n/, '');
      if (body.trim()) parts[h.name] = body.replace(/\s+$/, '') + '\n';
    });
  } else if (fences.length === names.length) {
    names.forEach((n, i) => {
      if (fences[i]!.body.trim()) parts[n] = fences[i]!.body.replace(/\s+$/, '') + '\n';
    });
  }
  const missing = names.filter((n) => parts[n] === undefined);
  return missing.length ? { missing } : { parts };
}

/** Non-empty, non-comment lines of an inputs block. */
export function inputLines(block: string): string[] {
  return block.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#') && !l.startsWith('//'));
}
