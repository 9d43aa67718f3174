/**
 * URLs for JavaScript that a runtime adapter holds as text (a patched library loader). Browsers
 * import it from a blob: URL (what the runtime frame's policy allows); Node cannot import blob:
 * URLs, so there it comes from a data: URL. Shared by the worker and Node builds, so it probes
 * for Node without Node's types (tsconfig.worker.json has none).
 */

export function runsOnNode(): boolean {
  return typeof (globalThis as { process?: { versions?: { node?: unknown } } }).process?.versions?.node === 'string';
}

/** A data: URL holding `source` as a JavaScript module. */
export function javascriptDataUrl(source: string): string {
  const bytes = new TextEncoder().encode(source);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:text/javascript;base64,${btoa(binary)}`;
}

/** A URL to import `source` from, and how to release it once the import is done. */
export function moduleUrl(source: string): { url: string; release: () => void } {
  if (runsOnNode()) return { url: javascriptDataUrl(source), release: () => {} };
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  return { url, release: () => URL.revokeObjectURL(url) };
}
