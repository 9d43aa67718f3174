/**
 * runtimes/host/memory-image.ts: what the snapshots of Perl, PHP, Ruby, JavaScript and Python
 * write back before every program. Written over a memory a program dirtied, it must give back the
 * image's bytes exactly (a missed byte is state one program leaves the next); it must keep only
 * the non-zero pages.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { MemoryImage } from '../../runtimes/host/memory-image';

const PAGE = 4096;

/** A memory of `pages` 64 KB pages with the given byte runs written into it. */
function memoryWith(pages: number, writes: [number, number, number][]): WebAssembly.Memory {
  const memory = new WebAssembly.Memory({ initial: pages });
  const bytes = new Uint8Array(memory.buffer);
  for (const [at, length, value] of writes) bytes.fill(value, at, Math.min(at + length, bytes.length));
  return memory;
}

it('writes back every byte over a dirtied memory, zero pages included', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 8 }),
      fc.array(fc.tuple(fc.nat(8 * 65536 - 1), fc.integer({ min: 1, max: 20_000 }), fc.integer({ min: 1, max: 255 })), { maxLength: 12 }),
      fc.array(fc.tuple(fc.nat(8 * 65536 - 1), fc.integer({ min: 1, max: 70_000 }), fc.integer({ min: 1, max: 255 })), { maxLength: 12 }),
      (pages, writes, dirt) => {
        const memory = memoryWith(pages, writes);
        const original = new Uint8Array(memory.buffer).slice();
        const image = new MemoryImage(memory);
        expect(image.byteLength).toBe(original.length);
        const bytes = new Uint8Array(memory.buffer);
        for (const [at, length, value] of dirt) bytes.fill(value, at, Math.min(at + length, bytes.length));
        image.writeTo(bytes);
        expect(Buffer.compare(bytes, original)).toBe(0);
      },
    ),
    { numRuns: 60 },
  );
});

it('keeps only the non-zero pages, and writes into a larger memory without touching what lies past it', () => {
  // 1 MB: a byte on page 3 and a stretch across pages 100-101; the rest zero.
  const memory = memoryWith(16, [[3 * PAGE + 17, 1, 9], [100 * PAGE + 4000, 200, 7]]);
  const image = new MemoryImage(memory);
  expect(image.storedBytes).toBeLessThanOrEqual(6 * PAGE); // pages 0-3 (a zero stretch under 4 pages is copied) and 100-101
  expect(image.storedBytes).toBeGreaterThanOrEqual(201);
  const larger = new Uint8Array(image.byteLength + 65536).fill(5);
  image.writeTo(larger);
  expect(Buffer.compare(larger.subarray(0, image.byteLength), new Uint8Array(memory.buffer))).toBe(0);
  expect(larger.subarray(image.byteLength).every((b) => b === 5)).toBe(true);
  expect(() => image.writeTo(new Uint8Array(image.byteLength - 1))).toThrow(/smaller/);
});

it('keeps a memory with no zero page whole', () => {
  const memory = memoryWith(2, [[0, 2 * 65536, 1]]);
  const image = new MemoryImage(memory);
  expect(image.storedBytes).toBe(2 * 65536);
  expect(image.bytes().every((b) => b === 1)).toBe(true);
});
