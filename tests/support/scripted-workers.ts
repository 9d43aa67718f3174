/** Worker pools' workers as scripts (tests of runtimes/host/pool.ts that need exact moments). */
import type { WorkerHandle } from '../../runtimes/host/pool';
import type { HostMessage, WorkerMessage } from '../../runtimes/host/protocol';

export type Script = (message: HostMessage, reply: (m: WorkerMessage) => void, die: (reason: string) => void, index: number) => void;

export function scriptedWorkers(script: Script) {
  let spawned = 0;
  const spawn = (): WorkerHandle => {
    const index = spawned++;
    let alive = true;
    let onMessage: (m: WorkerMessage) => void = () => {};
    let onExit: (reason: string) => void = () => {};
    const die = (reason: string) => {
      if (!alive) return;
      alive = false;
      onExit(reason);
    };
    return {
      post: (message) => queueMicrotask(() => alive && script(message, (m) => alive && onMessage(m), die, index)),
      onMessage: (h) => (onMessage = h),
      onExit: (h) => (onExit = h),
      terminate: () => (alive = false),
    };
  };
  return { spawn, count: () => spawned };
}
