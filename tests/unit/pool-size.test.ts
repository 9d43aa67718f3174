/**
 * Default pool sizes (issue #16 §2): one worker per core, but never more of a language's workers
 * than half the spare memory holds at that runtime's measured peak, and never none.
 */
import { expect, it } from 'vitest';
import { poolSizeFor, WORKER_MEMORY_MB } from '../../runtimes/host/pool-size';

const GB = 1024 ** 3;

it('uses the cores when memory is plentiful, and an explicit request over the cores', () => {
  expect(poolSizeFor('python', 2, 24 * GB)).toBe(2);
  expect(poolSizeFor('cpp', 8, 24 * GB)).toBe(8);
  expect(poolSizeFor('python', 2, 24 * GB, 6)).toBe(6);
});

it('caps the heavy runtimes by memory first, and keeps at least one worker', () => {
  // 4 GB (the page's fallback when navigator.deviceMemory is absent): half is 2 GB.
  expect(poolSizeFor('r', 8, 4 * GB)).toBe(Math.floor(2048 / WORKER_MEMORY_MB.r!));
  expect(poolSizeFor('r', 8, 4 * GB)).toBeLessThan(poolSizeFor('shell', 8, 4 * GB));
  expect(poolSizeFor('shell', 8, 4 * GB)).toBe(8);
  expect(poolSizeFor('cpp', 16, 1 * GB)).toBe(1);
  expect(poolSizeFor('cpp', 16, 1 * GB, 16)).toBe(1);
  // A language without a measured figure gets a conservative one.
  expect(poolSizeFor('rust', 16, 4 * GB)).toBe(4);
});
