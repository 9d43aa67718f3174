/**
 * The page's connect-src policy, built at startup (docs/security.md). index.html carries a static
 * Content Security Policy for everything else (scripts, frames, images, …) but deliberately no
 * connect-src, because the origins the page may talk to are a setting: its own origin always,
 * plus the origins the user has allowed (a dataset host now; the chosen model provider and remote
 * runner when they exist). This module adds a second policy, `connect-src 'self' <allowed>`, as a
 * <meta> element before anything else runs; both policies apply, so a connection must pass both.
 * A policy can only be tightened while the page lives: a newly allowed origin takes effect on the
 * next load (allowConnectOrigin, then reload).
 */

const STORAGE_KEY = 'benchtop.connect-origins';

/**
 * An origin the page may be allowed to connect to: https, or http on the local machine. Returns
 * the normalised origin, or null for anything else (paths, wildcards, other schemes).
 */
export function normalizeOrigin(input: string): string | null {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return null;
  }
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) return null;
  if (url.username || url.password) return null;
  // A plain host name or address: a "*" would make it a wildcard in the policy.
  if (!/^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/i.test(url.hostname)) return null;
  return url.origin;
}

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** The origins the user has allowed besides the page's own (validated; bad entries dropped). */
export function allowedConnectOrigins(): string[] {
  try {
    const saved = JSON.parse(storage()?.getItem(STORAGE_KEY) ?? '[]') as unknown;
    if (!Array.isArray(saved)) return [];
    const origins = saved.map((o) => (typeof o === 'string' ? normalizeOrigin(o) : null)).filter((o): o is string => !!o);
    return [...new Set(origins)];
  } catch {
    return [];
  }
}

/** Saves an origin as allowed. It takes effect the next time the page loads. */
export function allowConnectOrigin(origin: string): string {
  const normalized = normalizeOrigin(origin);
  if (!normalized) throw new Error(`${origin} cannot be allowed: only https origins (or http on this machine) can`);
  const origins = allowedConnectOrigins();
  if (!origins.includes(normalized)) storage()?.setItem(STORAGE_KEY, JSON.stringify([...origins, normalized]));
  return normalized;
}

/** The connect-src policy text for these origins. */
export function connectPolicy(origins: readonly string[], extra: readonly string[] = []): string {
  return `connect-src 'self' ${[...origins, ...extra].join(' ')}`.trim();
}

let installed: readonly string[] | null = null;

/** Adds the connect-src policy to the document (once). Returns the origins it allows besides 'self'. */
export function installConnectPolicy(origins: readonly string[] = allowedConnectOrigins()): readonly string[] {
  if (installed) return installed;
  // The dev server's hot reload talks over a WebSocket to the page's own host.
  const extra = import.meta.env.DEV ? [`ws://${location.host}`] : [];
  const meta = document.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = connectPolicy(origins, extra);
  meta.dataset.benchtop = 'connect-policy';
  document.head.append(meta);
  installed = [...origins];
  return installed;
}

/** Whether the page's policy lets it connect to this URL (its own origin, or an allowed one). */
export function isConnectAllowed(url: string): boolean {
  let origin: string;
  try {
    origin = new URL(url, location.href).origin;
  } catch {
    return false;
  }
  return origin === location.origin || (installed ?? allowedConnectOrigins()).includes(origin);
}
