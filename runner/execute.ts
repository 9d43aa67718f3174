/**
 * The runner's executor: which languages this machine can run (probed inside the sandbox at
 * start-up), and one spliced program → one sandboxed run → an ExecutionReport for
 * src/core/rules's `judgeRun`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { LANGUAGE_IDS, LANGUAGE_NAMES, type ExecutionReport, type LanguageId } from '../src/contracts';
import { languageRule } from '../src/core/rules';
import type { RunnerLanguage } from '../runtimes/remote/protocol';
import { parseJUnitReport } from './java';
import { SandboxError, type Bind, type Sandbox, type SandboxResult } from './sandbox';
import { TOOLCHAINS, type JobContext } from './toolchains';

/** One language as GET /languages reports it. */
export type LanguageInfo = RunnerLanguage;

export interface RunReport extends ExecutionReport {
  durationMs: number;
  runtime: string;
  truncated: boolean;
  compileOutput: string;
  outputLimitExceeded: boolean;
  command: string;
}

/** The runner cannot run this language here (toolchain missing): a clear message, never a crash. */
export class UnavailableError extends Error {}

/** Directories outside /usr that toolchains need, bound read-only into every run. */
export function toolchainBinds(): Bind[] {
  const binds: Bind[] = [];
  const nodePrefix = dirname(dirname(process.execPath));
  if (!process.execPath.startsWith('/usr/')) binds.push({ host: nodePrefix, sandbox: '/benchtop/node', pathDir: 'bin' });
  const rustc = spawnSync('rustc', ['--print', 'sysroot'], { encoding: 'utf8' });
  const sysroot = rustc.status === 0 ? rustc.stdout.trim() : '';
  if (sysroot && !sysroot.startsWith('/usr')) binds.push({ host: sysroot, sandbox: '/benchtop/rust', pathDir: 'bin' });
  const modules = nodeModulesWithTsx();
  if (modules) binds.push({ host: modules, sandbox: '/benchtop/node_modules', env: 'BENCHTOP_NODE_MODULES' });
  const registry = process.env.RUNNER_CARGO_REGISTRY ?? '/usr/share/cargo/registry';
  if (existsSync(registry)) binds.push({ host: registry, sandbox: '/benchtop/cargo-registry', env: 'BENCHTOP_CARGO_REGISTRY' });
  return binds;
}

function nodeModulesWithTsx(): string | null {
  try {
    const pkg = createRequire(import.meta.url).resolve('tsx/package.json');
    return dirname(dirname(pkg));
  } catch {
    return null;
  }
}

/** Runs one spliced program with its language's toolchain in the sandbox (not an `Executor`: it reports the official steps, and the server judges them). */
export class ToolchainRunner {
  private readonly info = new Map<LanguageId, LanguageInfo>();
  private readonly warm = new Map<LanguageId, Promise<Bind>>();
  private readonly cacheRoot: string;
  private cargoRegistry = '/benchtop/cargo-registry';

  constructor(private readonly sandbox: Sandbox, options: { cacheDir?: string } = {}) {
    this.cacheRoot = resolve(options.cacheDir ?? join(tmpdir(), `benchtop-runner-cache-${process.getuid?.() ?? 'user'}`));
  }

  /** Probes every toolchain inside the sandbox (a few at a time). */
  async probe(binds: readonly Bind[], onProbed?: (info: LanguageInfo) => void): Promise<void> {
    const registry = binds.find((b) => b.env === 'BENCHTOP_CARGO_REGISTRY');
    if (registry) this.cargoRegistry = this.sandbox.visible(registry);
    const queue = [...LANGUAGE_IDS];
    const probeOne = async (id: LanguageId) => {
      const toolchain = TOOLCHAINS[id];
      const missing = toolchain.requires.map((t) => `command -v ${t} >/dev/null || { echo "${t} not found"; exit 127; }`).join('; ');
      const limits = toolchain.job('', { version: '', cargoRegistry: this.cargoRegistry }).limits;
      const result = await this.sandbox.probe(`${missing}; ${toolchain.version}`, 30_000, limits);
      const version = result.output.split('\n').map((l) => l.trim()).filter(Boolean).join('; ');
      const info: LanguageInfo = {
        id,
        name: LANGUAGE_NAMES[id],
        available: result.ok && version.length > 0,
        version: result.ok ? version : '',
        command: toolchain.command,
        official_command: languageRule(id).officialCommand,
        official_version: toolchain.official,
        timeout_seconds: languageRule(id).timeoutSeconds,
      };
      if (!info.available) info.install = `unavailable: install ${toolchain.install}`;
      this.info.set(id, info);
      onProbed?.(info);
    };
    const lanes = Array.from({ length: 3 }, async () => {
      for (let id = queue.shift(); id; id = queue.shift()) await probeOne(id);
    });
    await Promise.all(lanes);
  }

  languages(): LanguageInfo[] {
    return LANGUAGE_IDS.map((id) => this.info.get(id)).filter((i): i is LanguageInfo => Boolean(i));
  }

  describe(language: LanguageId): LanguageInfo | undefined {
    return this.info.get(language);
  }

  private context(language: LanguageId): JobContext {
    return { version: this.info.get(language)?.version ?? '', cargoRegistry: this.cargoRegistry };
  }

  /**
   * A language's start-up step (Rust: compile the crates once), run the first time the language
   * is used; its output directory is bound read-only into every later run.
   */
  private prepare(language: LanguageId, slot: number): Promise<Bind> | null {
    const warm = TOOLCHAINS[language].warm;
    if (!warm) return null;
    let ready = this.warm.get(language);
    if (!ready) {
      ready = (async () => {
        const key = (this.info.get(language)?.version ?? 'unknown').replace(/[^A-Za-z0-9.]+/g, '-').slice(0, 80);
        const dir = join(this.cacheRoot, `${language}-${key}`);
        const bind: Bind = { host: dir, sandbox: '/benchtop/cache', env: 'BENCHTOP_CACHE' };
        if (existsSync(dir)) return bind;
        // Built in a directory of its own, then renamed into place: runners sharing the cache
        // directory never see (or bind) a half-written one.
        await mkdir(this.cacheRoot, { recursive: true, mode: 0o755 });
        const building = await mkdtemp(join(this.cacheRoot, `.${language}-`));
        try {
          await chmod(building, 0o755);
          const job = warm(this.context(language));
          const result = await this.sandbox.run({
            ...job,
            timeoutMs: 600_000,
            slot,
            binds: [{ host: building, sandbox: '/benchtop/cache-out', env: 'BENCHTOP_CACHE_OUT', writable: true }],
          });
          const uid = process.getuid?.();
          if (uid !== undefined) await chown(building, uid, process.getgid?.() ?? uid);
          if (result.exitCode !== 0) {
            throw new SandboxError(`preparing ${language} failed: ${(result.stdout + result.stderr).slice(-2000)}`);
          }
          await rename(building, dir).catch((e: NodeJS.ErrnoException) => {
            // Another runner finished first: use its copy.
            if (e.code !== 'ENOTEMPTY' && e.code !== 'EEXIST') throw e;
          });
        } finally {
          await rm(building, { recursive: true, force: true });
        }
        return bind;
      })();
      ready.catch(() => this.warm.delete(language));
      this.warm.set(language, ready);
    }
    return ready;
  }

  /** Runs one spliced program. Throws UnavailableError / SandboxError for what is not the program's fault. */
  async run(language: LanguageId, program: string, timeoutMs: number, slot: number, signal?: AbortSignal): Promise<RunReport> {
    const info = this.info.get(language);
    if (!info?.available) throw new UnavailableError(info?.install ?? `unavailable: ${language} has not been probed yet`);
    const toolchain = TOOLCHAINS[language];
    const job = toolchain.job(program, this.context(language));
    const cache = this.prepare(language, slot);
    const binds = cache ? [await cache] : [];
    const result: SandboxResult = await this.sandbox.run({ ...job, binds, timeoutMs, slot, signal });
    const report: RunReport = {
      exitCode: result.exitCode,
      stdout: result.stdout,
      stderr: result.stderr,
      timedOut: result.timedOut,
      compileFailed: result.compile ? result.compile.exitCode !== 0 && !result.compile.timedOut : false,
      compileTimedOut: result.compile?.timedOut ?? false,
      durationMs: (result.compile?.durationMs ?? 0) + result.durationMs,
      runtime: `${info.version} (benchtop runner, ${this.sandbox.isolation.mode})`,
      truncated: result.truncated,
      compileOutput: result.compile?.output ?? '',
      outputLimitExceeded: result.outputLimitExceeded,
      command: toolchain.command,
    };
    if (job.collect) report.testReport = parseJUnitReport(result.collected);
    return report;
  }
}
