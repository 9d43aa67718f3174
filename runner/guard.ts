/**
 * Who may drive the runner from a browser (docs/security.md, issue #12 finding 7). Without a token
 * the runner would otherwise run code for any web page the user visits: a cross-site `text/plain`
 * POST needs no CORS preflight, and DNS rebinding makes an attacker's host name point at 127.0.0.1.
 * So: a request must name a known Host, carry no Origin other than the listed ones, and a POST must
 * be `application/json` (which a page on another site cannot send without a preflight we refuse).
 */
import type { IncomingMessage } from 'node:http';

/** Host names always accepted: the loopback names. */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '::1'];

const WILDCARD_ADDRESSES = new Set(['', '0.0.0.0', '::', '[::]']);

/** The host names a runner listening on `listenHost` accepts, plus the configured extra ones. */
export function acceptedHosts(listenHost: string, extra: readonly string[] = []): Set<string> {
  const hosts = new Set([...LOOPBACK_HOSTS, ...extra.map(normalizeHost)]);
  if (!WILDCARD_ADDRESSES.has(listenHost)) hosts.add(normalizeHost(listenHost));
  return hosts;
}

/** `Example.org:8080` → `example.org`, `[::1]:80` → `::1`. */
export function normalizeHost(value: string): string {
  let host = value.trim().toLowerCase();
  if (host.startsWith('[')) host = host.slice(1, host.indexOf(']') === -1 ? undefined : host.indexOf(']'));
  else if (host.split(':').length === 2) host = host.slice(0, host.indexOf(':'));
  return host.replace(/\.$/, '');
}

export type GuardRefusal = { status: 403 | 415; error: string } | null;

/**
 * The refusal for this request, or null when it may go on. `hosts` containing `*` accepts any Host
 * (behind a reverse proxy that checks it); `origins` containing `*` accepts any Origin.
 */
export function guardRequest(req: IncomingMessage, path: string, hosts: ReadonlySet<string>, origins: ReadonlySet<string>): GuardRefusal {
  const host = req.headers.host;
  if (!hosts.has('*') && (!host || !hosts.has(normalizeHost(host)))) {
    return { status: 403, error: `Host "${host ?? ''}" is not accepted (set RUNNER_ALLOWED_HOSTS to serve other names)` };
  }
  const origin = req.headers.origin;
  // /health is public; preflights are answered by the CORS rules.
  if (origin !== undefined && path !== '/health' && req.method !== 'OPTIONS' && !origins.has('*') && !origins.has(origin)) {
    return { status: 403, error: `Origin ${origin} is not allowed (set ALLOWED_ORIGINS)` };
  }
  if (req.method === 'POST') {
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') return { status: 415, error: 'the request body must be sent as Content-Type: application/json' };
  }
  return null;
}
