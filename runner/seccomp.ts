/**
 * A seccomp filter that takes the kernel keyring away from programs (issue #12 finding 6). The
 * user keyring (@u) and the user-session keyring (@us) belong to a uid, not to a process tree, so
 * with one uid per slot a key stored by one run could be read by the next run in that slot: a
 * private channel between programs. No namespace bubblewrap offers separates them, so the three
 * keyring system calls (add_key, request_key, keyctl) fail with EPERM instead. None of the
 * toolchains needs them.
 *
 * The filter is a classic BPF program (struct sock_filter[]) handed to `bwrap --seccomp FD`. It is
 * written out here rather than generated with libseccomp: it is a dozen instructions, and every
 * ABI a process can call the kernel through on these machines is covered: x86-64 (x32 system
 * calls included: their number has bit 30 set), i386 (`int $0x80` from a 64-bit process is judged
 * as AUDIT_ARCH_I386) and arm64.
 */

// <linux/filter.h>, <linux/seccomp.h>, <linux/audit.h>
const BPF_LD_W_ABS = 0x20;
const BPF_ALU_AND_K = 0x54;
const BPF_JEQ_K = 0x15;
const BPF_RET_K = 0x06;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const EPERM = 1;
const OFFSET_NR = 0; // struct seccomp_data.nr
const OFFSET_ARCH = 4; // struct seccomp_data.arch
const X32_BIT = 0x40000000;

/** add_key, request_key, keyctl per architecture. */
export const KEYRING_SYSCALLS = {
  x86_64: { arch: 0xc000003e, numbers: [248, 249, 250] },
  i386: { arch: 0x40000003, numbers: [286, 287, 288] },
  aarch64: { arch: 0xc00000b7, numbers: [217, 218, 219] },
} as const;

type Target = 'next' | 'allow' | 'deny' | string;
interface Instruction { code: number; k: number; jt?: Target; jf?: Target; label?: string }

/** The filter as the bytes `bwrap --seccomp` reads (native little-endian struct sock_filter). */
export function keyringFilter(): Buffer {
  const program: Instruction[] = [{ code: BPF_LD_W_ABS, k: OFFSET_ARCH }];
  const arches = Object.entries(KEYRING_SYSCALLS);
  for (const [name, { arch }] of arches) program.push({ code: BPF_JEQ_K, k: arch, jt: name, jf: 'next' });
  // Another architecture: nothing to deny that we know the numbers of.
  program.push({ code: BPF_RET_K, k: SECCOMP_RET_ALLOW });
  for (const [name, { numbers }] of arches) {
    program.push({ code: BPF_LD_W_ABS, k: OFFSET_NR, label: name });
    if (name === 'x86_64') program.push({ code: BPF_ALU_AND_K, k: ~X32_BIT >>> 0 });
    for (const nr of numbers) program.push({ code: BPF_JEQ_K, k: nr, jt: 'deny', jf: 'next' });
    program.push({ code: BPF_RET_K, k: SECCOMP_RET_ALLOW });
  }
  program.push({ code: BPF_RET_K, k: SECCOMP_RET_ERRNO | EPERM, label: 'deny' });

  const at = (label: string) => program.findIndex((i) => i.label === label);
  const jump = (from: number, target: Target | undefined): number => {
    if (target === undefined || target === 'next') return 0;
    const offset = at(target) - from - 1;
    if (offset < 0 || offset > 255) throw new Error(`seccomp filter: bad jump to ${target}`);
    return offset;
  };
  const out = Buffer.alloc(program.length * 8);
  program.forEach((ins, i) => {
    out.writeUInt16LE(ins.code, i * 8);
    out.writeUInt8(jump(i, ins.jt), i * 8 + 2);
    out.writeUInt8(jump(i, ins.jf), i * 8 + 3);
    out.writeUInt32LE(ins.k >>> 0, i * 8 + 4);
  });
  return out;
}
