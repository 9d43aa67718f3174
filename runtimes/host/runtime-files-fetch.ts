/**
 * The download, hash check and Cache Storage copy of runtime files, run inside the page's own
 * runtime-files worker (./runtime-files-worker.ts) so that none of it lands on the page's main
 * thread: a 12 MB download is hundreds of small stream tasks, and on a loaded machine each one
 * delayed the page's answer to a click (docs/performance-notes.md, "The page's main thread during a run").
 * Every file, from the cache or the network, is checked against the sha256 the build computed
 * (RUNTIME_FILE_HASHES, vite.config.ts) before it is handed on: a cache entry that something
 * rewrote (docs/security.md, "the frame") is dropped and downloaded again, and a download that
 * does not match is refused.
 */
import type { DownloadProgress, RuntimeFile } from './runtime-files';

/** Runtime files are kept in the browser's Cache Storage: a second visit downloads nothing. */
const FILE_CACHE = 'benchtop-runtime-files-v1';
const MB = 1024 * 1024;

/**
 * Downloads a runtime's files from the app's own origin (or takes them from the cache), reporting
 * progress in megabytes. The cache is keyed by URL, and each URL carries the file's hash
 * (`…?v=<sha256>`), so an update never finds a stale entry.
 *
 * As Blobs (`as: 'blobs'`, for the runtime frame), a cached file is handed on as the very Blob the
 * cache gave, whose bytes were hashed: a Blob's bytes cannot change, so what was checked is what
 * the runtime worker reads. That skips copying the file into a new Blob (for C++'s 100 MB, about
 * 0.7 s of a first result in Chromium, and as much memory again in the browser: README, "What a first result costs").
 */
export async function downloadRuntimeFiles(urls: Record<string, RuntimeFile>, onStatus?: (message: string) => void, onProgress?: (progress: DownloadProgress) => void, as?: 'bytes'): Promise<Record<string, ArrayBuffer>>;
export async function downloadRuntimeFiles(urls: Record<string, RuntimeFile>, onStatus: ((message: string) => void) | undefined, onProgress: ((progress: DownloadProgress) => void) | undefined, as: 'blobs'): Promise<Record<string, Blob>>;
export async function downloadRuntimeFiles(
  urls: Record<string, RuntimeFile>,
  onStatus?: (message: string) => void,
  onProgress?: (progress: DownloadProgress) => void,
  as: 'bytes' | 'blobs' = 'bytes',
): Promise<Record<string, ArrayBuffer | Blob>> {
  const entries = Object.entries(urls);
  if (!entries.length) return {};
  const cache = await openRuntimeCache();
  const total = { expected: 0, unknown: false, received: 0, fromCache: 0 };
  // Sizes known from the build give a percent from the first byte, compressed or not.
  const built = entries.every(([, f]) => typeof f.bytes === 'number') ? entries.reduce((n, [, f]) => n + f.bytes!, 0) : 0;
  let lastReport = 0;
  const report = (force = false) => {
    const now = Date.now();
    if (!force && now - lastReport < 250) return;
    lastReport = now;
    const expected = built || (total.unknown ? 0 : total.expected + total.fromCache);
    onProgress?.({ received: total.received + total.fromCache, cached: total.fromCache, total: expected, done: force });
    if (!onStatus) return;
    const cached = total.fromCache ? ` (${(total.fromCache / MB).toFixed(1)} MB from this browser's cache)` : '';
    const of = total.expected && !total.unknown ? ` of ${(total.expected / MB).toFixed(1)}` : '';
    onStatus(`downloading runtime files: ${(total.received / MB).toFixed(1)}${of} MB${cached}…`);
  };
  const files = await Promise.all(entries.map(async ([name, { url, sha256 }]) => {
    const hit = await cache?.match(url);
    if (hit) {
      const blob = await hit.blob();
      const bytes = await blob.arrayBuffer();
      if (await hashMatches(bytes, sha256)) {
        total.fromCache += bytes.byteLength;
        report();
        return [name, as === 'blobs' ? blob : bytes] as const;
      }
      // Not what the build made: rewritten by someone, or damaged. Never used; downloaded again.
      await cache!.delete(url).catch(() => undefined);
      onStatus?.(`a cached runtime file (${name}) did not match its hash: downloading it again`);
    }
    // After a bad cache entry, past the HTTP cache too.
    const response = await fetchResponse(url, hit ? 'reload' : 'default');
    // A compressed response's length is not what the body yields: no total for it, then.
    const length = response.headers.get('content-encoding') ? 0 : Number(response.headers.get('content-length')) || 0;
    if (length) total.expected += length;
    else total.unknown = true;
    const bytes = await readWithProgress(response, (n) => { total.received += n; report(); }, url);
    if (!(await hashMatches(bytes, sha256))) throw new Error(`${url} is not the file this app was built with (its sha256 differs): refused`);
    // The cache gets a copy when `bytes` itself is transferred to the page, which detaches it.
    await cache?.put(url, new Response(as === 'blobs' ? bytes : bytes.slice(0), { headers: { 'content-type': response.headers.get('content-type') ?? 'application/octet-stream' } })).catch(() => undefined);
    return [name, as === 'blobs' ? new Blob([bytes]) : bytes] as const;
  }));
  report(true);
  return Object.fromEntries(files);
}

export async function openRuntimeCache(): Promise<Cache | null> {
  try {
    return typeof caches === 'undefined' ? null : await caches.open(FILE_CACHE);
  } catch {
    return null; // no Cache Storage here (an insecure origin, private mode): download every visit
  }
}

async function readWithProgress(response: Response, onChunk: (bytes: number) => void, url: string): Promise<ArrayBuffer> {
  if (!response.body) return response.arrayBuffer();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      length += value.length;
      onChunk(value.length);
    }
  } catch (e) {
    throw new Error(`could not download ${url}: ${(e as Error).message}`);
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes.buffer;
}

/**
 * Whether `bytes` hash to one of `sha256` (hex). Without Web Crypto (an insecure origin, which has no
 * Cache Storage either) only the network is left, the same origin the app's own scripts come from.
 */
async function hashMatches(bytes: ArrayBuffer, sha256: readonly string[]): Promise<boolean> {
  if (!sha256.length || typeof crypto === 'undefined' || !crypto.subtle) return true;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return sha256.includes([...digest].map((b) => b.toString(16).padStart(2, '0')).join(''));
}

export async function fetchResponse(url: string, cache: RequestCache = 'default'): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'same-origin', cache });
  } catch (e) {
    throw new Error(`could not download ${url}: ${(e as Error).message}`);
  }
  if (!response.ok) throw new Error(`could not download ${url}: HTTP ${response.status}`);
  return response;
}
