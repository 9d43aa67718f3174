/// <reference lib="webworker" />
/**
 * The page's runtime-files worker (started by ./runtime-files.ts): a dedicated worker on the app's
 * own origin, which the page alone can talk to. It downloads, hash-checks and caches runtime files
 * (./runtime-files-fetch.ts) and hands each request's files back as transferred ArrayBuffers, so
 * the page's main thread receives them done, in one message, without a copy. It runs no program
 * and hears nothing from the runtime frame (docs/security.md).
 */
import type { FilesReply, FilesRequest } from './runtime-files';
import { downloadRuntimeFiles } from './runtime-files-fetch';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const reply = (message: FilesReply, transfer: Transferable[] = []) => scope.postMessage(message, transfer);

scope.addEventListener('message', (event: MessageEvent<FilesRequest>) => {
  const { id, urls } = event.data;
  downloadRuntimeFiles(
    urls,
    (message) => reply({ id, kind: 'status', message }),
    (progress) => reply({ id, kind: 'progress', progress }),
  ).then(
    (files) => reply({ id, kind: 'done', files }, Object.values(files)),
    (e: unknown) => reply({ id, kind: 'failed', error: e instanceof Error ? e.message : String(e) }),
  );
});
