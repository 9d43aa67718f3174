/**
 * Finds the binary a native command really runs. A name on PATH may be a version manager's shim
 * (pyenv's `python3` is a shell script that re-resolves the version on every start, tripling
 * start-up), which would make the native side of a benchmark slower than it honestly is. So: every
 * match on PATH, symlinks resolved, scripts skipped, the distribution's (/usr/bin) preferred.
 */
import { accessSync, constants, openSync, readSync, closeSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';

function isElf(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(4);
    readSync(fd, head, 0, 4, 0);
    return head.equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
  } finally {
    closeSync(fd);
  }
}

/** Every executable called `name` on PATH, in PATH order, as real paths (duplicates removed). */
export function candidates(name: string, path = process.env.PATH ?? ''): string[] {
  const found: string[] = [];
  for (const dir of path.split(delimiter).filter(Boolean)) {
    try {
      const real = realpathSync(join(dir, name));
      accessSync(real, constants.X_OK);
      if (!found.includes(real)) found.push(real);
    } catch { /* not here */ }
  }
  return found;
}

/**
 * The fastest honest binary for `name`: a real executable (ELF), the distribution's first when it
 * has one (Debian's interpreters are the official major versions: Python 3, Ruby 3, PHP 8, R 4,
 * Perl 5), else the first on PATH. Falls back to the name itself when PATH has only scripts.
 */
export function resolveBinary(name: string, path?: string): string {
  const all = candidates(name, path);
  const binaries = all.filter((p) => { try { return isElf(p); } catch { return false; } });
  return binaries.find((p) => p.startsWith('/usr/bin/')) ?? binaries[0] ?? all[0] ?? name;
}
