/**
 * R's file system between runs: what a program may not change is made read-only and fingerprinted,
 * and what it wrote where it may write is removed, so the next program finds the file system the
 * snapshot saw (instance.ts). Also the file system of a new R, before it starts.
 */
import type { EmscriptenFS, FSNode } from './emscripten';
import type { ImageFile } from './images';
import { HOME, PROGRAM, SITE_PROFILE } from './session';

/** Where a program may write (removed after each run); the rest of the file system is read-only. */
export const WRITABLE = ['/tmp', HOME];

/** Entries of a directory node (MEMFS), without mount points (/proc/self/fd). */
function entries(FS: EmscriptenFS, node: FSNode): [string, FSNode][] {
  if (!FS.isDir(node.mode) || node.mounted) return [];
  return Object.entries(node.contents as Record<string, FSNode>);
}

/** Calls `visit` for every node outside WRITABLE and /proc, with its path. */
function walkFixed(FS: EmscriptenFS, visit: (path: string, node: FSNode) => void): void {
  const walk = (path: string, node: FSNode) => {
    visit(path, node);
    for (const [name, child] of entries(FS, node)) {
      const childPath = `${path === '/' ? '' : path}/${name}`;
      if (!WRITABLE.includes(childPath) && childPath !== '/proc') walk(childPath, child);
    }
  };
  walk('/', FS.lookupPath('/').node);
}

/** Takes the write permission from every directory and file outside WRITABLE (devices keep theirs). */
export function makeReadOnly(FS: EmscriptenFS): void {
  walkFixed(FS, (path, node) => {
    if (FS.isDir(node.mode) || FS.isFile(node.mode)) node.mode &= ~0o222;
  });
}

/** What identifies the state of a node: its mode and times, a directory's names, a file's size (devices: the mode). */
function nodeKey(FS: EmscriptenFS, node: FSNode): string {
  if (FS.isDir(node.mode)) return `${node.mode}|${node.mtime}|${node.ctime}|${entries(FS, node).map(([name]) => name).join('/')}`;
  if (FS.isFile(node.mode)) return `${node.mode}|${node.mtime}|${node.ctime}|${node.usedBytes}`;
  return `${node.mode}|${String((node as { link?: unknown }).link ?? '')}`;
}

export function fingerprint(FS: EmscriptenFS): Map<FSNode, { key: string; contents: unknown }> {
  const nodes = new Map<FSNode, { key: string; contents: unknown }>();
  walkFixed(FS, (path, node) => nodes.set(node, { key: nodeKey(FS, node), contents: FS.isFile(node.mode) ? node.contents : null }));
  return nodes;
}

export function sameFingerprint(FS: EmscriptenFS, saved: Map<FSNode, { key: string; contents: unknown }>): boolean {
  let same = true;
  let count = 0;
  walkFixed(FS, (path, node) => {
    count++;
    const was = saved.get(node);
    if (!was || was.key !== nodeKey(FS, node) || (FS.isFile(node.mode) && was.contents !== node.contents)) same = false;
  });
  return same && count === saved.size;
}

/** Every path under WRITABLE, with its node and mode. */
export function writableEntries(FS: EmscriptenFS): Map<string, { node: FSNode; mode: number }> {
  const found = new Map<string, { node: FSNode; mode: number }>();
  const walk = (path: string, node: FSNode) => {
    found.set(path, { node, mode: node.mode });
    for (const [name, child] of entries(FS, node)) walk(`${path}/${name}`, child);
  };
  for (const root of WRITABLE) walk(root, FS.lookupPath(root).node);
  return found;
}

/** Removes what is under `path` and was not there when the snapshot was taken. */
export function removeNew(FS: EmscriptenFS, path: string, keep: Map<string, unknown>): void {
  let node: FSNode;
  try {
    node = FS.lookupPath(path, { follow: false }).node;
  } catch {
    return;
  }
  for (const [name] of entries(FS, node)) {
    const child = `${path}/${name}`;
    if (keep.has(child)) removeNew(FS, child, keep);
    else removeTree(FS, child);
  }
}

/** Removes a file, link or directory with everything in it (links are not followed). */
function removeTree(FS: EmscriptenFS, path: string): void {
  const node = FS.lookupPath(path, { follow: false }).node;
  if (!FS.isDir(node.mode)) return FS.unlink(path);
  node.mode |= 0o700; // a program may have taken its own permissions away
  for (const [name] of entries(FS, node)) removeTree(FS, `${path}/${name}`);
  FS.rmdir(path);
}

/**
 * The file system of a new R (R.wasm's embedded files are in place), before R starts: the images,
 * an empty test.r (R opens it at start-up and reads it when the program runs), webR's site profile
 * replaced, and the webr package removed (it talks to webR's own worker; the official R has no
 * such package).
 */
export function prepareFileSystem(FS: EmscriptenFS, images: readonly ImageFile[][]): void {
  for (const image of images) {
    for (const file of image) {
      FS.mkdirTree(file.dir);
      // A copy per R (read-only, but a program could chmod it; restore() would notice).
      FS.createDataFile(file.dir, file.name, file.bytes, true, false, false);
    }
  }
  FS.writeFile(`${HOME}/${PROGRAM}`, '');
  FS.writeFile('/usr/lib/R/etc/Rprofile.site', SITE_PROFILE);
  removeTree(FS, '/usr/lib/R/library/webr');
}
