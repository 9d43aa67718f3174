/** Reading a dataset or answers file from a URL or a local file, with progress. */

export interface Progress {
  /** Bytes read so far. */
  loaded: number;
  /** Total bytes, when known. */
  total: number | null;
}

async function readStream(
  stream: ReadableStream<Uint8Array>,
  total: number | null,
  onProgress: (p: Progress) => void,
): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder('utf-8');
  const parts: string[] = [];
  let loaded = 0;
  onProgress({ loaded, total });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    loaded += value.byteLength;
    parts.push(decoder.decode(value, { stream: true }));
    onProgress({ loaded, total });
  }
  parts.push(decoder.decode());
  return parts.join('');
}

/** Reads a local file (file picker or drag-and-drop). */
export async function readFile(file: File, onProgress: (p: Progress) => void): Promise<string> {
  try {
    return await readStream(file.stream(), file.size, onProgress);
  } catch (e) {
    throw new Error(`Could not read ${file.name}: ${(e as Error).message}`);
  }
}

/**
 * Fetches a text file. Errors name the URL and say what went wrong: the HTTP status, a network
 * or cross-origin failure, or an HTML page where JSONL was expected.
 */
export async function fetchText(url: string, onProgress: (p: Progress) => void, signal?: AbortSignal): Promise<string> {
  let parsed: URL;
  try {
    parsed = new URL(url, location.href);
  } catch {
    throw new Error(`Could not load ${url}: not a valid URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`Could not load ${url}: only http and https URLs are supported`);
  }
  let response: Response;
  try {
    response = await fetch(parsed, { signal, credentials: 'omit', referrerPolicy: 'no-referrer' });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new Error(`Could not load ${url}: network error (${(e as Error).message}); the server may be down or may not allow cross-origin requests`);
  }
  if (!response.ok) {
    throw new Error(`Could not load ${url}: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
  }
  // Content-Length counts compressed bytes when the response is encoded: only trust it otherwise.
  const length = Number(response.headers.get('content-length'));
  const total = response.headers.get('content-encoding') || !Number.isFinite(length) || length <= 0 ? null : length;
  const text = response.body ? await readStream(response.body, total, onProgress) : await response.text();
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('text/html') || /^\s*<(!doctype|html|head|body)\b/i.test(text.slice(0, 512))) {
    throw new Error(`Could not load ${url}: the server returned an HTML page, not JSONL`);
  }
  return text;
}

/** The last path segment of a URL, for naming a dataset. */
export function nameFromUrl(url: string): string {
  try {
    const segments = new URL(url, location.href).pathname.split('/').filter(Boolean);
    return decodeURIComponent(segments[segments.length - 1] ?? url);
  } catch {
    return url;
  }
}
