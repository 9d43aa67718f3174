/// <reference lib="webworker" />
/**
 * The page's runtime-files worker (started by ./runtime-files.ts): a dedicated worker on the app's
 * own origin, which the page alone can talk to. It downloads, hash-checks and caches runtime files
 * (./runtime-files-fetch.ts) and hands each request's files on: to the page as transferred
 * ArrayBuffers, or, when the request carries a port whose other end the page gave the runtime
 * frame, straight to the frame as Blobs, so that no main thread, the page's or the frame's, copies
 * them. It runs no program and never listens on such a port: nothing the frame sends
 * reaches it (docs/security.md).
 */
import type { DownloadProgress, FilesReply, FilesRequest } from './runtime-files';
import { downloadRuntimeFiles } from './runtime-files-fetch';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const reply = (message: FilesReply, transfer: Transferable[] = []) => scope.postMessage(message, transfer);

scope.addEventListener('message', (event: MessageEvent<FilesRequest>) => {
  const { id, urls, to } = event.data;
  const onStatus = (message: string) => reply({ id, kind: 'status', message });
  const onProgress = (progress: DownloadProgress) => reply({ id, kind: 'progress', progress });
  // For the frame, as Blobs: a Blob crosses into the frame's process as a handle, where transferred
  // bytes are copied there on the frame's main thread (which relays every result: held up to 1.3 s
  // at a time while nine runtimes loaded, #16), and again into each runtime worker's init message.
  // Each runtime worker reads the bytes itself, in its own thread (browser-worker.ts).
  const sending = to
    ? downloadRuntimeFiles(urls, onStatus, onProgress, 'blobs').then((files) => {
      to.port.postMessage({ language: to.language, files });
      to.port.close();
      reply({ id, kind: 'sent' });
    })
    : downloadRuntimeFiles(urls, onStatus, onProgress).then((files) => reply({ id, kind: 'done', files }, Object.values(files)));
  sending.catch((e: unknown) => {
    to?.port.close();
    reply({ id, kind: 'failed', error: e instanceof Error ? e.message : String(e) });
  });
});
