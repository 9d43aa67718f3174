/**
 * Runs jobs one at a time, in call order: each job starts when the one before it has settled, and
 * a job that fails does not stop the ones after it. A runtime keeps one program at a time in its
 * interpreter, and a worker handles its host's messages in order.
 */
export type Queue = <T>(job: () => T | Promise<T>) => Promise<T>;

export function createQueue(): Queue {
  let tail: Promise<unknown> = Promise.resolve();
  return (job) => {
    const result = tail.then(job);
    tail = result.catch(() => undefined);
    return result;
  };
}
