/**
 * The runtime frame's page (sandbox.html), built by vite.config.ts: the frame script of
 * sandbox-frame.js inlined, and a Content Security Policy that lets the frame and the workers it
 * starts run that script, blob: code (the runtimes) and WebAssembly, and nothing else: no
 * connection, no other script, no storage of the app's (the page loads it with
 * sandbox="allow-scripts", an opaque origin). Workers created from blob: URLs inherit the policy
 * of the document that creates them, so the wall holds on any static host: no header needed.
 * See docs/security.md. Node-only module (it reads the script from disk).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export const SANDBOX_PAGE = 'sandbox.html';

/**
 * What a server that can set headers adds for sandbox.html (vite.config.ts does, docs/security.md
 * lists it for other hosts): only the app's own origin may frame it, and it gets an opaque origin
 * even when framed without the sandbox attribute. Neither works from a <meta> policy.
 */
export const SANDBOX_HEADER_POLICY = "sandbox allow-scripts; frame-ancestors 'self'";

export function sandboxPolicy(scriptHash: string): string {
  return [
    "default-src 'none'",
    `script-src '${scriptHash}' blob: 'wasm-unsafe-eval'`,
    'worker-src blob:',
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export function sandboxHtml(): { html: string; policy: string } {
  const script = readFileSync(new URL('./sandbox-frame.js', import.meta.url), 'utf8');
  const hash = `sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}`;
  const policy = sandboxPolicy(hash);
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="referrer" content="no-referrer">
<title>benchtop runtime sandbox</title>
</head>
<body>
<script>${script}</script>
</body>
</html>
`;
  return { html, policy };
}
