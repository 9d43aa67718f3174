/**
 * Dataset files kept in the browser after their first download (the official presets), in Cache
 * Storage as the runtimes' files are (runtimes/host/runtime-files.ts), keyed by the file's URL:
 * a second load, even offline, reads them from here. "Forget" deletes an entry. A kept file is
 * parsed and hashed like any other load, so its sha256 in a manifest is that of the bytes used.
 */

const DATASET_CACHE = 'benchtop-datasets-v1';

async function openCache(): Promise<Cache | null> {
  try {
    return typeof caches === 'undefined' ? null : await caches.open(DATASET_CACHE);
  } catch {
    return null; // no Cache Storage (an insecure origin, private mode): download every time
  }
}

/** The URLs of the files kept here (empty without Cache Storage). */
export async function keptDatasetUrls(): Promise<string[]> {
  const cache = await openCache();
  if (!cache) return [];
  return (await cache.keys()).map((r) => r.url);
}

/** A kept file's bytes as a File named `name`, or null when it is not kept. */
export async function keptDataset(url: string, name: string): Promise<File | null> {
  const hit = await (await openCache())?.match(url);
  return hit ? new File([await hit.blob()], name) : null;
}

/** Keeps a downloaded file; false when the browser has no room or no Cache Storage (the load itself stands). */
export async function keepDataset(url: string, chunks: readonly Uint8Array[]): Promise<boolean> {
  const cache = await openCache();
  if (!cache) return false;
  try {
    await cache.put(url, new Response(new Blob(chunks as readonly BlobPart[] as BlobPart[]), { headers: { 'content-type': 'application/jsonl' } }));
    return true;
  } catch {
    return false; // over quota
  }
}

export async function forgetDataset(url: string): Promise<void> {
  await (await openCache())?.delete(url);
}
