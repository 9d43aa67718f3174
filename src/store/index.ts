/** The run store for this page: IndexedDB when the browser allows it, else memory (with a reason). */
import { IndexedDbRunStore } from './indexeddb';
import { MemoryRunStore } from './memory';
import type { RunStore } from './types';

export * from './types';
export { IndexedDbRunStore } from './indexeddb';
export { MemoryRunStore } from './memory';
export { alignResults, describeLegacy, legacyIds, type LegacyIds } from './legacy';

export interface OpenedStore {
  store: RunStore;
  /** Set when runs will not survive a reload (IndexedDB could not be opened). */
  warning?: string;
}

export async function openRunStore(): Promise<OpenedStore> {
  if (typeof indexedDB === 'undefined') {
    return { store: new MemoryRunStore(), warning: 'This browser offers no IndexedDB: runs are kept in memory only and are lost on reload.' };
  }
  try {
    return { store: await IndexedDbRunStore.open() };
  } catch (e) {
    return { store: new MemoryRunStore(), warning: `Could not open IndexedDB (${(e as Error).message}): runs are kept in memory only and are lost on reload.` };
  }
}
