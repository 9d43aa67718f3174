/** webR's file-system images (R_HOME/share, the parallel package): unpacked once per worker. */

/**
 * Parts of R's installation that R.wasm does not embed, as webR ships them: gzipped file-system
 * images, each with a listing (file → byte range). R_HOME/share holds the time zone database
 * (without it every time zone is "unknown"); parallel is a base package.
 */
export const IMAGES = [
  { mount: '/usr/lib/R/share', data: 'share.data.gz', listing: 'share.js.metadata' },
  { mount: '/usr/lib/R/library/parallel', data: 'parallel.data.gz', listing: 'parallel.js.metadata' },
] as const;

export interface ImageFile {
  dir: string;
  name: string;
  bytes: Uint8Array;
}

/**
 * The files of one of webR's file-system images (gzipped data + a JSON listing of byte ranges).
 * A web server may have sent the .gz with `Content-Encoding: gzip` (vite's does), so that the
 * browser already unpacked it: then the data is used as it came.
 */
export async function unpackImage(mount: string, packed: ArrayBuffer, listing: ArrayBuffer): Promise<ImageFile[]> {
  let data = new Uint8Array(packed);
  if (data[0] === 0x1f && data[1] === 0x8b) {
    data = new Uint8Array(await new Response(new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer());
  }
  const { files } = JSON.parse(new TextDecoder().decode(listing)) as { files: { filename: string; start: number; end: number }[] };
  if (files.some((f) => f.end > data.length)) throw new Error(`benchtop: R's ${mount} image is incomplete`);
  return files.map(({ filename, start, end }) => {
    const path = mount + filename;
    const cut = path.lastIndexOf('/');
    return { dir: path.slice(0, cut), name: path.slice(cut + 1), bytes: data.subarray(start, end) };
  });
}
