/**
 * The CLI's Executor: the same runtimes as the page, each pool slot in a process of its own
 * (node-process.ts, which hosts the runtime thread) under Node's permission model. See
 * docs/security.md, "The CLI (Node)", for the walls and the tests of each.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { availableParallelism, freemem } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LanguageId } from '../../src/contracts';
import type { RuntimeShared } from '../loader';
import { WORKER_LANGUAGES } from './languages';
import { nodeModulesPath } from './node-files';
import { createPoolExecutor, MAX_SPARES, type PoolExecutor, type WorkerHandle } from './pool';
import { poolSizeFor } from './pool-size';
import type { HostMessage, WorkerMessage } from './protocol';

export interface NodeExecutorOptions {
  onStatus?: (language: LanguageId, message: string) => void;
  /** Workers per language at most (default: the cores); each pool is also capped by memory (./pool-size.ts). */
  poolSize?: number;
  /** The bundled worker process; defaults to dist-node/worker-process.mjs (built by scripts/build-node.mjs). */
  workerUrl?: URL;
}

// Run from source (tests) the bundle is in dist-node/; run as the bundled CLI it sits beside us.
const defaultWorkerUrl = () =>
  new URL(import.meta.url.endsWith('.ts') ? '../../dist-node/worker-process.mjs' : './worker-process.mjs', import.meta.url);

/**
 * Node's flags for a runtime process: it may read its own bundle folder and node_modules (the
 * runtimes' files) and start its one worker thread; nothing else on disk, no writes, no child
 * processes. (Node 20's model has no network permission: the thread's own lockdown,
 * node-lockdown.ts, keeps sockets out of reach.) Code from strings (eval, new Function) is off
 * in every context of the process: no runtime needs it, and a program that got hold of a
 * JavaScript function could otherwise write its own.
 */
export function permissionFlags(workerFile: string): string[] {
  const bundleDir = realpathSync(dirname(workerFile));
  const nodeModules = realpathSync(nodeModulesPath('.', bundleDir));
  // Node 20 has it as --experimental-permission; 22.13+ and 23.5+ call it --permission.
  const permission = process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission';
  return [
    permission,
    `--allow-fs-read=${bundleDir}/*`,
    `--allow-fs-read=${nodeModules}/*`,
    '--allow-worker',
    '--disallow-code-generation-from-strings',
    '--no-warnings', // the permission model's "experimental" notice, once per process
  ];
}

/** A `shared` message's contents as a runtime process sends them: bytes only, and their key. */
function sharedBytes(value: unknown): RuntimeShared | null {
  if (typeof value !== 'object' || value === null) return null;
  const { bytes, key } = value as RuntimeShared;
  if (typeof bytes !== 'object' || bytes === null || (key !== undefined && typeof key !== 'string')) return null;
  const entries = Object.entries(bytes);
  return entries.every(([, b]) => b instanceof Uint8Array) ? { bytes: Object.fromEntries(entries), key } : null;
}

/** How much of a worker process's stderr is kept, for the reason given when it dies. */
const STDERR_TAIL = 1000;

export function createNodeExecutor(options: NodeExecutorOptions = {}): PoolExecutor {
  const workerFile = fileURLToPath(options.workerUrl ?? defaultWorkerUrl());
  const execArgv = permissionFlags(workerFile);
  // What a language's first worker built while loading (C++: its support objects and the splice's
  // precompiled header, seconds of compiling), handed to the language's later workers in their
  // `init`, as the page's runtime frame does (sandbox-frame.js): taken only before the worker's
  // first other message (before it ran any program), only the first per language.
  const shared = new Map<LanguageId, RuntimeShared>();
  const spawn = (language: LanguageId): WorkerHandle => {
    // An empty environment: the CLI's own variables (API keys among them) never reach the
    // runtime process. 'advanced' serialization: runtime files travel as ArrayBuffers.
    const child: ChildProcess = fork(workerFile, [], {
      execArgv,
      env: {},
      cwd: dirname(workerFile),
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-STDERR_TAIL)));
    let exited = false;
    let loading = true;
    return {
      post: (message: HostMessage) => {
        if (!child.connected) return;
        const given = message.type === 'init' ? shared.get(message.language) : undefined;
        child.send(given && message.type === 'init' ? { ...message, settings: { ...message.settings, shared: given } } : message);
      },
      onMessage: (handler) => child.on('message', (m) => {
        const message = m as WorkerMessage;
        if (loading && message?.type === 'shared') {
          const bytes = sharedBytes(message.shared);
          if (bytes && !shared.has(language)) shared.set(language, bytes);
          return;
        }
        if (message?.type !== 'status') loading = false;
        handler(message);
      }),
      onExit: (handler) => {
        const end = (reason: string) => {
          if (exited) return;
          exited = true;
          handler(stderr.trim() ? `${reason}: ${stderr.trim().split('\n').slice(-3).join(' ')}` : reason);
        };
        child.on('error', (e) => end(e.message));
        // 'close' (not 'exit'): by then the last of its stderr has been read.
        child.on('close', (code, signal) => end(signal ? `killed by ${signal}` : `exit code ${code}`));
      },
      terminate: () => {
        exited = true;
        child.kill('SIGKILL');
      },
    };
  };
  // Memory the host can spare now: free memory, not total (other processes share the machine).
  const size = (language: LanguageId) => poolSizeFor(language, availableParallelism(), freemem(), options.poolSize);
  // Spares for runaways (pool.ts) only where free memory holds them too.
  const spares = (language: LanguageId) => poolSizeFor(language, 0, freemem(), size(language) + MAX_SPARES) - size(language);
  return createPoolExecutor({ spawn, languages: WORKER_LANGUAGES, size, spares, onStatus: options.onStatus });
}
