/**
 * Reading a dataset or answers file from a URL or a local file. Datasets are parsed as a stream
 * (src/core/records.ts: parseDatasetStream), so a 100 MB file loads with progress and without
 * freezing the page; every problem with the file is reported with its line or its cause.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { parseDatasetStream, type StreamedDataset } from '../../core/records';
import { isConnectAllowed } from './csp';

/** A loaded dataset with the sha256 (hex) of its bytes, computed as they stream in (for manifests). */
export type HashedDataset = StreamedDataset & { sha256: string };

/** Passes the chunks through, hashing them; `digest()` once they are all read. */
function hashing(source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): { chunks: AsyncIterable<Uint8Array>; digest: () => string } {
  const hash = sha256.create();
  async function* chunks(): AsyncGenerator<Uint8Array> {
    if ('getReader' in source) {
      const reader = source.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          hash.update(value);
          yield value;
        }
      } finally {
        reader.releaseLock();
      }
    } else {
      for await (const chunk of source) {
        hash.update(chunk);
        yield chunk;
      }
    }
  }
  return { chunks: chunks(), digest: () => bytesToHex(hash.digest()) };
}

export interface Progress {
  /** Bytes read so far. */
  loaded: number;
  /** Total bytes, when known. */
  total: number | null;
  /** Problems loaded so far (datasets). */
  problems?: number;
}

/** The page's Content Security Policy does not allow connections to this origin (yet). */
export class BlockedOriginError extends Error {
  constructor(
    readonly url: string,
    readonly origin: string,
  ) {
    super(
      `Could not load ${url}: this page may only connect to its own origin and the origins you allowed, ` +
        `and ${origin} is not one of them (its Content Security Policy; see docs/security.md)`,
    );
    this.name = 'BlockedOriginError';
  }
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

/** Reads a local file as text (answers files). */
export async function readFile(file: File, onProgress: (p: Progress) => void): Promise<string> {
  try {
    return await readStream(file.stream(), file.size, onProgress);
  } catch (e) {
    throw new Error(`Could not read ${file.name}: ${(e as Error).message}`);
  }
}

/** Parses a local dataset file as a stream (file picker or drag-and-drop). */
export async function loadDatasetFile(file: File, onProgress: (p: Progress) => void, signal?: AbortSignal): Promise<HashedDataset> {
  try {
    const hashed = hashing(file.stream());
    const parsed = await parseDatasetStream(hashed.chunks, {
      signal,
      onProgress: (p) => onProgress({ loaded: p.bytes, total: file.size, problems: p.problems }),
    });
    return { ...parsed, sha256: hashed.digest() };
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    throw new Error(`Could not read ${file.name}: ${(e as Error).message}`);
  }
}

/**
 * Fetches a URL, naming it in every error: a URL the page's policy does not allow, the HTTP
 * status, a network or cross-origin failure.
 */
async function open(url: string, signal?: AbortSignal): Promise<{ response: Response; parsed: URL }> {
  let parsed: URL;
  try {
    parsed = new URL(url, location.href);
  } catch {
    throw new Error(`Could not load ${url}: not a valid URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`Could not load ${url}: only http and https URLs are supported`);
  }
  if (!isConnectAllowed(parsed.href)) throw new BlockedOriginError(url, parsed.origin);
  // A redirect to an origin the policy does not allow shows up only as a violation event.
  let blocked: string | null = null;
  const onViolation = (e: SecurityPolicyViolationEvent) => {
    if (e.effectiveDirective === 'connect-src' && e.blockedURI) {
      try {
        blocked = new URL(e.blockedURI).origin;
      } catch {
        blocked = e.blockedURI;
      }
    }
  };
  document.addEventListener('securitypolicyviolation', onViolation);
  let response: Response;
  try {
    response = await fetch(parsed, { signal, credentials: 'omit', referrerPolicy: 'no-referrer' });
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    // The violation event may come a moment after the failed fetch.
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (blocked) throw new BlockedOriginError(url, blocked);
    throw new Error(`Could not load ${url}: network error (${(e as Error).message}); the server may be down or may not allow cross-origin requests`);
  } finally {
    setTimeout(() => document.removeEventListener('securitypolicyviolation', onViolation), 100);
  }
  if (!response.ok) {
    throw new Error(`Could not load ${url}: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
  }
  return { response, parsed };
}

/** Content-Length counts compressed bytes when the response is encoded: only trust it otherwise. */
function knownLength(response: Response): number | null {
  const length = Number(response.headers.get('content-length'));
  return response.headers.get('content-encoding') || !Number.isFinite(length) || length <= 0 ? null : length;
}

const looksLikeHtml = (head: string) => /^\s*<(!doctype|html|head|body)\b/i.test(head);

/** Fetches a text file (answers files); an HTML page where JSONL was expected is an error. */
export async function fetchText(url: string, onProgress: (p: Progress) => void, signal?: AbortSignal): Promise<string> {
  const { response } = await open(url, signal);
  if ((response.headers.get('content-type') ?? '').includes('text/html')) {
    throw new Error(`Could not load ${url}: the server returned an HTML page, not JSONL`);
  }
  const text = response.body ? await readStream(response.body, knownLength(response), onProgress) : await response.text();
  if (looksLikeHtml(text.slice(0, 512))) throw new Error(`Could not load ${url}: the server returned an HTML page, not JSONL`);
  return text;
}

/**
 * Fetches a dataset and parses it as it arrives. An HTML page (a login page, a "not found" page
 * with status 200, a repository's web view instead of its raw file) is recognised from its first
 * bytes and reported as such.
 */
export async function loadDatasetUrl(
  url: string,
  onProgress: (p: Progress) => void,
  signal?: AbortSignal,
  options: { keepBytes?: boolean } = {},
): Promise<HashedDataset & { kept?: Uint8Array[] }> {
  const { response } = await open(url, signal);
  // The bytes as they came, when asked for (a preset keeps them in the browser after the load).
  const kept: Uint8Array[] | undefined = options.keepBytes ? [] : undefined;
  const html = () => new Error(`Could not load ${url}: the server returned an HTML page, not JSONL (is this the raw file's URL?)`);
  if ((response.headers.get('content-type') ?? '').includes('text/html')) {
    await response.body?.cancel();
    throw html();
  }
  if (!response.body) throw new Error(`Could not load ${url}: the response has no body`);
  const total = knownLength(response);
  const body = response.body;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    const reader = body.getReader();
    let first = true;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        if (first) {
          first = false;
          if (looksLikeHtml(new TextDecoder().decode(value.subarray(0, 512)))) throw html();
        }
        kept?.push(value);
        yield value;
      }
    } finally {
      reader.releaseLock();
      void body.cancel().catch(() => {});
    }
  }
  try {
    const hashed = hashing(chunks());
    const parsed = await parseDatasetStream(hashed.chunks, {
      signal,
      onProgress: (p) => onProgress({ loaded: p.bytes, total, problems: p.problems }),
    });
    return { ...parsed, sha256: hashed.digest(), ...(kept ? { kept } : {}) };
  } catch (e) {
    const error = e as Error;
    if (error.name === 'AbortError' || error.message.startsWith('Could not load')) throw error;
    throw new Error(`Could not load ${url}: the download broke off (${error.message})`);
  }
}

/**
 * The size of the file at `url` from a HEAD request (Content-Length), or null: when the page may
 * not connect to its host, the server does not say, or the request fails.
 */
export async function remoteSize(url: string, signal?: AbortSignal): Promise<number | null> {
  if (!isConnectAllowed(url)) return null;
  try {
    const response = await fetch(url, { method: 'HEAD', signal, credentials: 'omit', referrerPolicy: 'no-referrer' });
    return response.ok ? knownLength(response) : null;
  } catch {
    return null;
  }
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
