/**
 * The C++ runtime's two support objects (exceptions.o from exceptions.cpp, glibc-rand.o from
 * glibc-rand.c), prebuilt: clang.ts links them into every program. Compiled in a worker's new
 * LLVM they were most of its load (Chromium about 8.5 s, Node about 4 s of a first worker's
 * 8–9 s), and they are always the same bytes: clang's output depends only on its version, the
 * flags, the sources and the headers it reads. So they come built, with a fingerprint of all of
 * those, and a runtime uses them only when its own fingerprint is the same; otherwise (another
 * -O level, extra flags, an edited source) it compiles them as before.
 *
 * The bytes are in support-objects.generated.ts, written by `npm run cpp-objects` from what the
 * runtime itself compiles (src/cli/cpp-objects.ts). tests/integration/runtime-cpp.test.ts compiles
 * them afresh and fails if either the fingerprint or a byte differs, so they cannot drift from
 * their sources. They are part of the worker's own code, like exceptions.cpp's text was.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { PREBUILT_SUPPORT } from './support-objects.generated';

export type SupportObjects = { 'exceptions.o': Uint8Array; 'glibc-rand.o': Uint8Array };

/** What the objects' bytes depend on, hashed (synchronously: a page served over plain http has no crypto.subtle). */
export function supportFingerprint(inputs: unknown[]): string {
  return bytesToHex(sha256(new TextEncoder().encode(JSON.stringify(inputs))));
}

/** The prebuilt objects when they were built from exactly these inputs; null otherwise. */
export function prebuiltSupportObjects(fingerprint: string): SupportObjects | null {
  if (fingerprint !== PREBUILT_SUPPORT.fingerprint) return null;
  return { 'exceptions.o': fromBase64(PREBUILT_SUPPORT.exceptions), 'glibc-rand.o': fromBase64(PREBUILT_SUPPORT.rand) };
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
