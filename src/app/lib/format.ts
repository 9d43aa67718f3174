/** Small display helpers. */

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const totalSeconds = Math.round(ms / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (hours) return `${hours} h ${String(minutes).padStart(2, '0')} min`;
  return `${minutes} min ${String(seconds).padStart(2, '0')} s`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

/** Below this, a wait for a worker is not worth mentioning beside the run time. */
const WAIT_WORTH_SAYING_MS = 500;

/** "0.4 s", or "0.4 s (+12.0 s wait)" when the programs waited for a worker or a runtime download. */
export function formatRunTime(runMs: number | null, waitMs: number | undefined): string {
  if (runMs === null) return '';
  const wait = waitMs !== undefined && waitMs >= WAIT_WORTH_SAYING_MS ? ` (+${formatDuration(waitMs)} wait)` : '';
  return `${formatDuration(runMs)}${wait}`;
}
