/**
 * A short, human title for a problem, derived from its question: the first Markdown heading if the
 * question opens with one (AutoCodeBench questions do: "# Merge Overlapping Intervals"), else its
 * first sentence. One function for the page's problem table and the exports, so both say the same.
 */

/** Titles longer than this are cut at a word boundary, with an ellipsis. */
export const TITLE_MAX = 80;

export function problemTitle(question: string): string {
  const lines = question.split(/\r?\n/).map((l) => l.trim());
  const heading = lines.find((l) => /^#{1,6}\s+\S/.test(l));
  const firstText = lines.find((l) => l && !/^(```|#{1,6}\s*$)/.test(l));
  // A heading only counts when nothing but blank lines comes before it.
  const opensWithHeading = heading !== undefined && heading === firstText;
  const raw = opensWithHeading ? heading.replace(/^#{1,6}\s+/, '') : firstSentence(lines.filter((l) => !l.startsWith('```')).join(' '));
  return shorten(plain(raw));
}

function firstSentence(text: string): string {
  // A full stop, question or exclamation mark followed by a space ends it (not "e.g." inside code).
  const match = /^(.*?[.!?])(\s|$)/.exec(text.trim());
  return match ? match[1]! : text.trim();
}

/** Markdown emphasis, code ticks and links reduced to their text; whitespace collapsed. */
function plain(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`+/g, '')
    // Emphasis only: snake_case names keep their underscores.
    .replace(/(\*\*|\*)([^*]+)\1/g, '$2')
    .replace(/\s+/g, ' ')
    .trim();
}

function shorten(text: string): string {
  if (text.length <= TITLE_MAX) return text;
  const cut = text.slice(0, TITLE_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_MAX / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}
