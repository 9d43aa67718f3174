/**
 * Issue #12 finding 6: the kernel keyring must not carry data from one run to the next. The user
 * keyring belongs to a uid, and each concurrent slot runs as one uid, so without the seccomp filter
 * (runner/seccomp.ts) a key stored by one program could be read by the next in the same slot.
 * One runner with a single slot, so every run here uses the same uid.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedRunner } from '../../runner/runner';
import { KEYRING_SYSCALLS, keyringFilter } from '../../runner/seccomp';
import { sharedExecutor, startTestRunner, submit } from '../support/runner-helpers';

// KEY_SPEC_SESSION_KEYRING, KEY_SPEC_USER_KEYRING, KEY_SPEC_USER_SESSION_KEYRING
const RINGS = [-3, -4, -5];
const x64 = KEYRING_SYSCALLS.x86_64.numbers;

const store = `import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
for ring in ${JSON.stringify(RINGS)}:
    r = libc.syscall(${x64[0]}, b"user", b"canary%d" % -ring, b"secret-42", 9, ring)
    print("add", ring, r, ctypes.get_errno() if r < 0 else 0)
`;
const read = `import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
for ring in ${JSON.stringify(RINGS)}:
    r = libc.syscall(${x64[1]}, b"user", b"canary%d" % -ring, None, 0)
    print("find", ring, r, ctypes.get_errno() if r < 0 else 0)
r = libc.syscall(${x64[2]}, 0, -4, 0)  # KEYCTL_GET_KEYRING_ID of @u
print("keyctl", r, ctypes.get_errno() if r < 0 else 0)
`;
// The i386 entry point from a 64-bit process (int $0x80: add_key is 286 there). Without the
// filter the kernel would answer EFAULT (the 64-bit pointers do not fit), with it EPERM.
const i386 = `#include <cstdio>
int main() {
  long r;
  asm volatile("int $0x80" : "=a"(r) : "a"(${KEYRING_SYSCALLS.i386.numbers[0]}), "b"(0), "c"(0), "d"(0), "S"(0), "D"(-4) : "memory");
  std::printf("i386 %ld\\n", r);
}
`;
/**
 * Whether this kernel answers the i386 entry point at all: getpid (20) through `int $0x80`, run
 * natively, outside any sandbox. Some kernels (ia32_emulation=0, some VM hosts) kill the process
 * with SIGSEGV instead; there the entry point cannot reach add_key with or without the filter.
 */
function kernelHasI386Entry(): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'benchtop-i386-'));
  try {
    writeFileSync(join(dir, 'probe.cpp'), 'int main() {\n  long r;\n  asm volatile("int $0x80" : "=a"(r) : "a"(20L) : "memory");\n  return r > 0 ? 0 : 1;\n}\n');
    execFileSync('g++', ['-o', join(dir, 'probe'), join(dir, 'probe.cpp')]);
    const probe = spawnSync(join(dir, 'probe'));
    if (probe.status === 0) return true;
    if (probe.signal === 'SIGSEGV') return false;
    throw new Error(`the i386 probe ended unexpectedly: status ${probe.status}, signal ${probe.signal}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// x32 numbering (bit 30 set) reaches the same system calls.
const x32 = `#include <cstdio>
#include <cerrno>
#include <unistd.h>
#include <sys/syscall.h>
int main() {
  long r = syscall(0x40000000 | ${x64[2]}, 0, -4, 0);
  std::printf("x32 %ld %d\\n", r, r < 0 ? errno : 0);
}
`;

let runner: StartedRunner;
beforeAll(async () => {
  runner = await startTestRunner({ maxConcurrency: 1 }, await sharedExecutor());
});
afterAll(async () => {
  await runner?.close();
});

const EPERM = 1;

describe('runner: no kernel keyring between runs (issue #12 finding 6)', () => {
  it('the filter is the BPF program bwrap expects: whole sock_filter entries ending in a return', () => {
    const filter = keyringFilter();
    expect(filter.length % 8).toBe(0);
    expect(filter.readUInt16LE(filter.length - 8)).toBe(0x06); // BPF_RET|BPF_K
    expect(filter.readUInt32LE(filter.length - 4)).toBe(0x00050000 | EPERM);
  });

  it('a key stored by one program cannot be read by the next in the same slot', async () => {
    const first = await submit(runner.url, 'python', store);
    expect(first.body.exec_outcome, first.body.exec_runtime_message).toBe('PASSED');
    // Storing is refused outright (EPERM), in every keyring.
    expect(first.body.exec_cout.trim().split('\n')).toEqual(RINGS.map((ring) => `add ${ring} -1 ${EPERM}`));
    const second = await submit(runner.url, 'python', read);
    expect(second.body.exec_outcome, second.body.exec_runtime_message).toBe('PASSED');
    const lines = second.body.exec_cout.trim().split('\n');
    expect(lines.slice(0, 3)).toEqual(RINGS.map((ring) => `find ${ring} -1 ${EPERM}`));
    expect(lines[3]).toBe(`keyctl -1 ${EPERM}`);
    expect(second.body.exec_cout).not.toContain('secret-42');
  }, 120_000);

  it('the i386 and x32 entry points are filtered too', async () => {
    const a = await submit(runner.url, 'cpp', i386);
    if (kernelHasI386Entry()) {
      expect(a.body.exec_outcome, a.body.exec_compile_message + a.body.exec_runtime_message).toBe('PASSED');
      expect(a.body.exec_cout.trim()).toBe(`i386 ${-EPERM}`);
    } else {
      // This kernel has no i386 entry point (the native probe died of SIGSEGV): neither does the sandbox.
      expect(a.body.exec_outcome, a.body.exec_compile_message + a.body.exec_runtime_message).toBe('RUNTIME_ERROR');
      expect(a.body.exec_cout).not.toContain('i386');
    }
    const b = await submit(runner.url, 'cpp', x32);
    expect(b.body.exec_outcome, b.body.exec_compile_message + b.body.exec_runtime_message).toBe('PASSED');
    expect(b.body.exec_cout.trim()).toBe(`x32 -1 ${EPERM}`);
  }, 180_000);
});
