/**
 * The official image runs CPython 3.11, and so does our Pyodide (0.25.1): an answer that uses a
 * feature added after 3.11 fails there, so it must fail here; one that uses a feature removed after
 * 3.11 passes there, so it must pass here (issue #13, part 2). Each program's expected verdict and
 * output come from the real python3 3.11 of this machine, run as the official sandbox runs it.
 */
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { runNative } from '../../runtimes/native/process';
import type { RunResult } from '../../src/contracts';
import { judgeRun } from '../../src/core/rules';
import { useNodeExecutor } from '../support/runtimes';

const TIMEOUT_MS = 20_000;
const executor = useNodeExecutor();

/** Added in 3.12 or later: syntax, built-in modules' functions and attributes. */
const NEWER: Record<string, string> = {
  'PEP 701 f-string quotes (3.12)': 'd = {"k": 1}\nprint(f"{d["k"]}")\n',
  'type statement (3.12)': 'type Point = tuple[int, int]\nprint("ok")\n',
  'generic function syntax (3.12)': 'def first[T](xs: list[T]) -> T:\n    return xs[0]\n\nassert first([1]) == 1\n',
  'itertools.batched (3.12)': 'import itertools\nassert list(itertools.batched("abcd", 2)) == [("a", "b"), ("c", "d")]\n',
  'math.sumprod (3.12)': 'import math\nassert math.sumprod([1, 2], [3, 4]) == 11\n',
  'typing.override (3.12)': 'from typing import override\nprint("ok")\n',
  'copy.replace (3.13)': 'import copy, dataclasses\n@dataclasses.dataclass\nclass P:\n    x: int\nassert copy.replace(P(1), x=2).x == 2\n',
  'class __static_attributes__ (3.13)': 'class A:\n    def __init__(self):\n        self.x = 1\nassert A.__static_attributes__ == ("x",)\n',
};

/** Removed in 3.12 or later, still there in 3.11. */
const REMOVED: Record<string, string> = {
  'imp (3.12)': 'import imp\nprint(type(imp.get_magic()).__name__)\n',
  'ast.Num (3.14)': 'import ast\nassert ast.Num(3).n == 3\nprint(type(ast.parse("1").body[0].value).__name__)\n',
  'configparser.SafeConfigParser (3.12)': 'import configparser\nprint(configparser.SafeConfigParser.__name__)\n',
  'unittest.makeSuite (3.13)': 'import unittest\nprint(callable(unittest.makeSuite))\n',
  'pkgutil.ImpImporter (3.12)': 'import pkgutil\nprint(pkgutil.ImpImporter.__name__)\n',
  'asynchat and asyncore (3.12)': 'import asynchat, asyncore\nprint(asyncore.loop.__name__)\n',
  'cgi, pipes, imghdr, uu, xdrlib (3.13)': 'import cgi, pipes, imghdr, uu, xdrlib\nprint(pipes.quote("a b"))\n',
  'typing.ByteString (3.14)': 'import typing\nassert isinstance(b"x", typing.ByteString)\nprint("ok")\n',
  'locale.getdefaultlocale (3.15)': 'import locale\nprint(callable(locale.getdefaultlocale))\n',
};

const native = new Map<string, RunResult>();
beforeAll(async () => {
  expect(execFileSync('python3', ['--version'], { encoding: 'utf8' })).toMatch(/^Python 3\.11\./);
  for (const program of [...Object.values(NEWER), ...Object.values(REMOVED)]) {
    native.set(program, await runNative({ language: 'python', program, timeoutMs: TIMEOUT_MS }));
  }
}, 120_000);

async function agrees(program: string): Promise<void> {
  const official = native.get(program)!;
  const here = await executor.run({ language: 'python', program, timeoutMs: TIMEOUT_MS });
  const detail = `python3: ${official.stderr.slice(-200)} | here: ${here.stderr.slice(-200)}`;
  expect(judgeRun('python', here), detail).toBe(judgeRun('python', official));
  expect(here.stdout, detail).toBe(official.stdout);
}

describe('Python is CPython 3.11, as in the official image', () => {
  it('reports its version', async () => {
    const r = await executor.run({ language: 'python', program: 'import sys\nprint(sys.version_info[:2])', timeoutMs: TIMEOUT_MS });
    expect(r.stdout).toBe('(3, 11)\n');
    expect(r.runtime).toMatch(/^Pyodide 0\.25\.\d+ \(CPython 3\.11\.\d+\)$/);
  });

  it.each(Object.entries(NEWER))('an answer using %s fails, as under python3 3.11', async (_name, program) => {
    expect(judgeRun('python', native.get(program)!)).not.toBe('PASSED');
    await agrees(program);
  });

  it.each(Object.entries(REMOVED))('an answer using %s passes, as under python3 3.11', async (_name, program) => {
    expect(judgeRun('python', native.get(program)!)).toBe('PASSED');
    await agrees(program);
  });
});
