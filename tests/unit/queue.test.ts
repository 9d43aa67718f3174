/** runtimes/queue.ts: one job at a time, in call order, and a failure does not stop the queue. */
import { describe, expect, it } from 'vitest';
import { createQueue } from '../../runtimes/queue';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('createQueue', () => {
  it('runs jobs one at a time, in call order, each with its own result', async () => {
    const queue = createQueue();
    const events: string[] = [];
    let running = 0;
    const job = (name: string) => queue(async () => {
      running++;
      expect(running).toBe(1);
      events.push(`start ${name}`);
      await tick();
      events.push(`end ${name}`);
      running--;
      return name.toUpperCase();
    });
    const results = await Promise.all([job('a'), job('b'), job('c')]);
    expect(results).toEqual(['A', 'B', 'C']);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('a failing job rejects its own call only; the next job still runs, after it', async () => {
    const queue = createQueue();
    const order: string[] = [];
    const failed = queue(async () => {
      await tick();
      order.push('failed');
      throw new Error('boom');
    });
    const next = queue(() => {
      order.push('next');
      return 2;
    });
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe(2);
    expect(order).toEqual(['failed', 'next']);
  });
});
