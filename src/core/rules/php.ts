import type { Outcome } from '../../contracts';

/**
 * PHP (SPEC §5): every `?>` leaves the solution, which gets a leading `<?php` if it lacks one;
 * every `<?php` leaves the tests; both parts are trimmed (the recorded all_code shows no blank
 * line left where the tags were) and joined by a newline, with a final newline.
 */
export function phpSplice(solution: string, tests: string): string {
  let head = solution.replaceAll('?>', '').trim();
  if (!head.startsWith('<?php')) head = '<?php\n' + head;
  return head + '\n' + tests.replaceAll('<?php', '').trim() + '\n';
}

/**
 * The official pre-check on the spliced program: exactly one `<?php` (anywhere, even inside a
 * string), the first line is `<?php`, the last non-empty line is `?>`; else SYNTAX_ERROR unrun.
 */
export function phpPrecheck(program: string): Outcome | null {
  const lines = program.split('\n').map((l) => l.trim());
  const nonEmpty = lines.filter((l) => l !== '');
  const ok = program.split('<?php').length === 2 && lines[0] === '<?php' && nonEmpty.at(-1) === '?>';
  return ok ? null : 'SYNTAX_ERROR';
}
