/**
 * The bench's native side must run the real interpreter, not a version manager's shim (issue #16):
 * a shell-script `python3` earlier on PATH is skipped for the distribution's binary.
 */
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { candidates, resolveBinary } from '../../runtimes/native/binaries';

const dir = mkdtempSync(join(tmpdir(), 'benchtop-shims-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('skips a shell-script shim first on PATH and resolves symlinks to the real binary', () => {
  const shim = join(dir, 'shims');
  const links = join(dir, 'links');
  mkdirSync(shim);
  mkdirSync(links);
  writeFileSync(join(shim, 'perl'), '#!/bin/sh\nexec /usr/bin/perl "$@"\n');
  chmodSync(join(shim, 'perl'), 0o755);
  symlinkSync('/usr/bin/perl', join(links, 'perl'));
  const path = [shim, links, '/usr/bin'].join(':');
  const real = realpathSync('/usr/bin/perl');
  expect(candidates('perl', path)).toEqual([join(shim, 'perl'), real]);
  expect(resolveBinary('perl', path)).toBe(real);
  // Only scripts on PATH: the first is still used (the bench then runs what the user has).
  expect(resolveBinary('perl', shim)).toBe(join(shim, 'perl'));
  expect(resolveBinary('no-such-tool-here', path)).toBe('no-such-tool-here');
});
