/**
 * One isolated run: a fresh run directory, no network, a read-only system, its own process
 * namespace, rlimits, a wall timeout per step that kills everything the program started, capped
 * output, and nothing left behind.
 *
 * Isolation comes from bubblewrap. Three modes, chosen at start-up by a self-test (`detectIsolation`):
 * - `bwrap-root` (the runner is root, as in a container or our CI): bwrap without a user
 *   namespace, then `setpriv` drops to an unprivileged uid of the run's slot (every concurrent run
 *   has its own uid, so the process limit of one run cannot starve another) with no capabilities,
 *   an empty bounding set and no_new_privs.
 * - `bwrap-userns` (a normal user): bwrap with a user namespace; the program keeps the runner's uid
 *   outside the sandbox.
 * - `none`: bubblewrap is missing or cannot create namespaces. Only rlimits, a separate uid (as
 *   root) and the process-group kill remain; the runner refuses this mode unless
 *   RUNNER_ALLOW_UNSANDBOXED=1 (see runner/README.md).
 *
 * Inside the sandbox a small driver script (written per run) copies the program into a size-capped
 * tmpfs at /sandbox, runs the optional compile step (its output on fd 3, its exit status on fd 4),
 * then the program (stdout/stderr), then hands back one collected file (fd 5, Java's JUnit report).
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmod, chown, mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { closeSync, existsSync, lstatSync, openSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { keyringFilter } from './seccomp';

export type IsolationMode = 'bwrap-root' | 'bwrap-userns' | 'none';

export interface Isolation {
  mode: IsolationMode;
  /** A sentence for /health and the start-up banner. */
  description: string;
  /** First uid of the per-slot uids (bwrap-root and none-as-root). */
  uidBase: number | null;
}

export interface Limits {
  /** RLIMIT_CPU, seconds of CPU time per process. */
  cpuSeconds: number;
  /** RLIMIT_AS, bytes of address space per process. */
  addressSpaceBytes: number;
  /** RLIMIT_NPROC: processes and threads of the run's uid. */
  processes: number;
  /** RLIMIT_FSIZE, bytes per written file. */
  fileSizeBytes: number;
  /** Size of the tmpfs that holds the run directory (/sandbox). */
  workDirBytes: number;
}

export const DEFAULT_LIMITS: Limits = {
  cpuSeconds: 120,
  addressSpaceBytes: 4 * 1024 ** 3,
  processes: 256,
  fileSizeBytes: 256 * 1024 ** 2,
  workDirBytes: 768 * 1024 ** 2,
};

export interface Bind {
  host: string;
  /** Where the sandbox sees it (bwrap modes; without namespaces the host path is used). */
  sandbox: string;
  writable?: boolean;
  /** An environment variable that receives the path as the program sees it. */
  env?: string;
  /** A subdirectory to put first on PATH. */
  pathDir?: string;
}

export interface SandboxJob {
  /** Files copied into /sandbox, by relative path. */
  files: Record<string, string>;
  /** Shell lines run in /sandbox before the compile step (copying caches); failure is an infrastructure error. */
  setup?: string[];
  /** Compile step, a shell command run in /sandbox; a non-zero exit ends the run. */
  compile?: string;
  /** The program, a shell command run in /sandbox. */
  run: string;
  /** A file (relative to /sandbox) whose content is returned after the run step. */
  collect?: string;
  env?: Record<string, string>;
  binds?: readonly Bind[];
  limits?: Partial<Limits>;
  /** Wall time of each step (compile, run), as in the official sandbox. */
  timeoutMs: number;
  /** Which concurrency slot runs this job (selects the uid). */
  slot: number;
  signal?: AbortSignal;
}

export interface StepResult {
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
}

export interface SandboxResult extends StepResult {
  stdout: string;
  stderr: string;
  /** The compile step, when the job has one and it ran. */
  compile?: StepResult & { output: string };
  /** A stream was cut at OUTPUT_KEEP bytes. */
  truncated: boolean;
  /** The program wrote more than OUTPUT_KILL bytes and was stopped (reported as a time-out). */
  outputLimitExceeded: boolean;
  collected?: string;
}

/** Bytes of each stream that are kept. */
export const OUTPUT_KEEP = 1 << 20;
/** Total output after which the program is stopped, as the official sandbox effectively does. */
export const OUTPUT_KILL = 16 << 20;

export class SandboxError extends Error {}

/** Paths of the sandbox's own view. */
export const SANDBOX_DIR = '/sandbox';
export const SANDBOX_HOME = '/home/sandbox';
const IN_DIR = '/in';
/** The keyring seccomp filter: a file of the run's host directory, open as this fd in bwrap. */
const SECCOMP_FILE = 'keyring.bpf';
const SECCOMP_FD = 6;

const SYSTEM_DIRS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
const BASE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

function which(command: string): string | null {
  const r = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

export interface SandboxOptions {
  /** Toolchains outside the system directories (e.g. a rustup toolchain under /root), for every run. */
  systemBinds?: readonly Bind[];
  /** Overrides of DEFAULT_LIMITS for every run (a language's own limits still win). */
  limits?: Partial<Limits>;
  /** Where the host side of each run is written (and removed): default the system's temp directory. */
  tmpRoot?: string;
  /** Directories put first on the PATH of every run (toolchains installed under /opt or /usr/local). */
  extraPath?: readonly string[];
  /** LANG and LC_ALL of every run; default none (the POSIX locale, as in the official image). */
  locale?: string;
  /** TZ of every run; default none (the system's zone, UTC in containers). */
  timezone?: string;
}

export class Sandbox {
  private readonly bwrap = which('bwrap');
  private readonly setpriv = which('setpriv');
  private readonly prlimit = which('prlimit');
  readonly isRoot = process.getuid?.() === 0;

  private readonly systemBinds: readonly Bind[];
  private readonly defaults: Partial<Limits>;
  private readonly tmpRoot: string;
  private readonly extraPath: readonly string[];
  private readonly locale: string | undefined;
  private readonly timezone: string | undefined;

  constructor(readonly isolation: Isolation, options: SandboxOptions = {}) {
    this.locale = options.locale;
    this.timezone = options.timezone;
    this.extraPath = options.extraPath ?? [];
    this.systemBinds = options.systemBinds ?? [];
    this.defaults = options.limits ?? {};
    this.tmpRoot = options.tmpRoot ?? tmpdir();
  }

  /** The path under which a run sees a bound directory. */
  visible(bind: Bind): string {
    return this.isolation.mode === 'none' ? bind.host : bind.sandbox;
  }

  /** Runs one job. Throws SandboxError only for failures that are not the program's. */
  async run(job: SandboxJob): Promise<SandboxResult> {
    const limits = { ...DEFAULT_LIMITS, ...this.defaults, ...job.limits };
    const hostDir = await mkdtemp(join(this.tmpRoot, 'benchtop-run-'));
    try {
      await this.prepare(hostDir, job);
      const argv = this.command(hostDir, job, limits);
      return await this.execute(argv, job, this.isolation.mode === 'none' ? null : join(hostDir, SECCOMP_FILE));
    } finally {
      await rm(hostDir, { recursive: true, force: true });
    }
  }

  private uid(slot: number): number | null {
    return this.isolation.uidBase === null ? null : this.isolation.uidBase + slot;
  }

  /** Host side of the run: the files and the driver, readable (not writable) by the sandbox uid. */
  private async prepare(hostDir: string, job: SandboxJob): Promise<void> {
    const filesDir = join(hostDir, 'files');
    await mkdir(filesDir);
    for (const [name, content] of Object.entries(job.files)) {
      const path = join(filesDir, name);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, content);
    }
    await writeFile(join(hostDir, 'driver.sh'), driverScript(job, this.isolation.mode === 'none' ? hostDir : IN_DIR));
    // bwrap reads the keyring filter from fd SECCOMP_FD (see runner/seccomp.ts).
    if (this.isolation.mode !== 'none') await writeFile(join(hostDir, SECCOMP_FILE), keyringFilter());
    await chmod(hostDir, 0o755);
    if (this.isolation.mode === 'none') {
      // No tmpfs without namespaces: the run directory is a host directory owned by the run's uid.
      const work = join(hostDir, 'sandbox');
      const home = join(hostDir, 'home');
      await mkdir(work);
      await mkdir(home);
      const uid = this.uid(job.slot);
      if (uid !== null) {
        await chown(work, uid, uid);
        await chown(home, uid, uid);
      }
    }
    for (const bind of job.binds ?? []) {
      const uid = this.uid(job.slot);
      if (bind.writable && uid !== null) await chown(bind.host, uid, uid);
    }
  }

  private env(job: SandboxJob, hostDir: string): Record<string, string> {
    const none = this.isolation.mode === 'none';
    const binds = [...this.systemBinds, ...(job.binds ?? [])];
    const extraPath = binds.filter((b) => b.pathDir !== undefined).map((b) => join(this.visible(b), b.pathDir!));
    const bindEnv = Object.fromEntries(binds.filter((b) => b.env).map((b) => [b.env!, this.visible(b)]));
    return {
      PATH: [...this.extraPath, ...extraPath, BASE_PATH].join(':'),
      HOME: none ? join(hostDir, 'home') : SANDBOX_HOME,
      TMPDIR: '/tmp',
      // No LANG: the official image sets none, so programs run in the POSIX locale (this decides
      // e.g. R's collation order). RUNNER_LOCALE sets one.
      ...(this.locale ? { LANG: this.locale, LC_ALL: this.locale } : {}),
      ...(this.timezone ? { TZ: this.timezone } : {}),
      ...bindEnv,
      ...job.env,
    };
  }

  private command(hostDir: string, job: SandboxJob, limits: Limits): string[] {
    const env = this.env(job, hostDir);
    const uid = this.uid(job.slot);
    const rlimits = [
      this.prlimit!, `--cpu=${limits.cpuSeconds}`, `--as=${limits.addressSpaceBytes}`, `--nproc=${limits.processes}`,
      `--fsize=${limits.fileSizeBytes}`, '--core=0', '--nofile=4096', '--',
    ];
    const dropPrivileges = uid !== null
      ? [this.setpriv!, `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', '--no-new-privs', '--']
      : [];
    if (this.isolation.mode === 'none') {
      const envArgs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
      return ['env', '-i', ...envArgs, ...dropPrivileges, ...rlimits, '/bin/sh', join(hostDir, 'driver.sh')];
    }
    const args = [this.bwrap!];
    if (this.isolation.mode === 'bwrap-root') {
      args.push('--unshare-ipc', '--unshare-pid', '--unshare-net', '--unshare-uts', '--unshare-cgroup-try');
    } else {
      args.push('--unshare-all', '--unshare-user', '--disable-userns', '--uid', '65534', '--gid', '65534');
    }
    args.push('--die-with-parent', '--ro-bind', '/usr', '/usr', '--ro-bind', '/etc', '/etc');
    for (const dir of SYSTEM_DIRS) {
      if (!existsSync(dir)) continue;
      const stat = lstatSync(dir);
      if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
      else args.push('--ro-bind', dir, dir);
    }
    if (existsSync('/opt')) args.push('--ro-bind', '/opt', '/opt');
    args.push('--proc', '/proc', '--dev', '/dev');
    args.push('--perms', '1777', '--size', String(256 * 1024 ** 2), '--tmpfs', '/tmp');
    args.push('--perms', '0777', '--size', String(limits.workDirBytes), '--tmpfs', SANDBOX_DIR);
    args.push('--perms', '0777', '--size', String(256 * 1024 ** 2), '--tmpfs', SANDBOX_HOME);
    args.push('--ro-bind', hostDir, IN_DIR);
    // Parents of bind targets would otherwise be created 0700 (unreadable for the run's uid).
    const parents = new Set<string>();
    for (const bind of [...this.systemBinds, ...(job.binds ?? [])]) {
      for (let d = dirname(bind.sandbox); d !== '/'; d = dirname(d)) parents.add(d);
    }
    for (const dir of [...parents].sort()) args.push('--perms', '0755', '--dir', dir);
    for (const bind of [...this.systemBinds, ...(job.binds ?? [])]) {
      args.push(bind.writable ? '--bind' : '--ro-bind', bind.host, bind.sandbox);
    }
    args.push('--seccomp', String(SECCOMP_FD));
    args.push('--chdir', SANDBOX_DIR, '--clearenv');
    for (const [k, v] of Object.entries(env)) args.push('--setenv', k, v);
    args.push('--', ...dropPrivileges, ...rlimits, '/bin/sh', `${IN_DIR}/driver.sh`);
    return args;
  }

  private execute(argv: string[], job: SandboxJob, seccompPath: string | null): Promise<SandboxResult> {
    return new Promise<SandboxResult>((resolve, reject) => {
      const [exe, ...args] = argv;
      const filter = seccompPath === null ? null : openSync(seccompPath, 'r');
      // A new process group (detached) so that the time-out kills everything at once; a minimal
      // environment so that nothing of the runner's (tokens) reaches the sandbox.
      let child;
      try {
        child = spawn(exe!, args, {
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe', 'pipe', ...(filter === null ? [] : [filter])],
          env: { PATH: BASE_PATH },
        });
      } finally {
        // The child has its own copy of the descriptor now.
        if (filter !== null) closeSync(filter);
      }
      const stdout = new Capture(OUTPUT_KEEP);
      const stderr = new Capture(OUTPUT_KEEP);
      const compileOutput = new Capture(OUTPUT_KEEP);
      const collected = new Capture(OUTPUT_KEEP);
      let events = '';
      let phase: 'setup' | 'compile' | 'run' = 'setup';
      let phaseStarted = performance.now();
      let compile: SandboxResult['compile'];
      let timedOut = false;
      let outputLimitExceeded = false;
      let setupFailed = '';
      let timer: NodeJS.Timeout | undefined;
      let killed = false;

      const kill = () => {
        if (killed) return;
        killed = true;
        try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ }
      };
      const arm = () => {
        clearTimeout(timer);
        phaseStarted = performance.now();
        // Setup (copying pre-built caches in) has a budget of its own: it is not the program's time.
        timer = setTimeout(() => { timedOut = true; kill(); }, job.timeoutMs + (phase === 'setup' ? 30_000 : 0));
      };
      arm();
      const onAbort = () => kill();
      job.signal?.addEventListener('abort', onAbort, { once: true });

      const outputs = child.stdio as unknown as Array<NodeJS.ReadableStream | null>;
      const watchTotal = () => {
        if (stdout.total + stderr.total > OUTPUT_KILL && !outputLimitExceeded) {
          outputLimitExceeded = true;
          kill();
        }
      };
      outputs[1]!.on('data', (b: Buffer) => { stdout.add(b); watchTotal(); });
      outputs[2]!.on('data', (b: Buffer) => { stderr.add(b); watchTotal(); });
      outputs[3]!.on('data', (b: Buffer) => compileOutput.add(b));
      outputs[5]!.on('data', (b: Buffer) => collected.add(b));
      outputs[4]!.on('data', (b: Buffer) => {
        events += b.toString('utf8');
        let nl: number;
        while ((nl = events.indexOf('\n')) >= 0) {
          const line = events.slice(0, nl);
          events = events.slice(nl + 1);
          const [what, value] = line.split(' ');
          if (what === 'setup-failed') setupFailed = line.slice('setup-failed '.length);
          else if (what === 'setup-done') { phase = job.compile ? 'compile' : 'run'; arm(); }
          else if (what === 'compiled') {
            compile = { exitCode: Number(value), timedOut: false, durationMs: performance.now() - phaseStarted, output: '' };
            phase = 'run';
            arm();
          }
        }
      });
      child.on('error', (e) => {
        clearTimeout(timer);
        reject(new SandboxError(`could not start the sandbox: ${e.message}`));
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        job.signal?.removeEventListener('abort', onAbort);
        kill(); // anything left in the group (there is nothing in a pid namespace)
        if (job.signal?.aborted) return reject(new SandboxError('the run was cancelled'));
        if (setupFailed) return reject(new SandboxError(`could not prepare the run directory: ${setupFailed}`));
        if (phase === 'setup' && !timedOut) {
          return reject(new SandboxError(`the sandbox did not start (exit ${code ?? signal}): ${stderr.text().slice(0, 2000)}`));
        }
        if (phase === 'setup' && timedOut) return reject(new SandboxError('preparing the run directory timed out'));
        const durationMs = performance.now() - phaseStarted;
        if (phase === 'compile') {
          // Killed (time limit, output limit) or ended during the compile step.
          compile = { exitCode: timedOut ? null : code, timedOut: timedOut || outputLimitExceeded, durationMs, output: compileOutput.text() };
          return resolve({ exitCode: null, timedOut: false, durationMs: 0, stdout: stdout.text(), stderr: stderr.text(), compile, truncated: compileOutput.truncated, outputLimitExceeded });
        }
        if (compile) compile.output = compileOutput.text();
        if (compile && compile.exitCode !== 0) {
          return resolve({ exitCode: null, timedOut: false, durationMs: 0, stdout: stdout.text(), stderr: stderr.text(), compile, truncated: compileOutput.truncated, outputLimitExceeded });
        }
        const stopped = timedOut || outputLimitExceeded;
        resolve({
          exitCode: stopped ? null : code,
          timedOut: stopped,
          durationMs,
          stdout: stdout.text(),
          stderr: stderr.text(),
          compile,
          truncated: stdout.truncated || stderr.truncated,
          outputLimitExceeded,
          collected: job.collect && !stopped ? collected.text() : undefined,
        });
      });
    });
  }

  /** Runs `sh -c command` in the sandbox with small limits; used for version probes and self-tests. */
  async probe(command: string, timeoutMs = 20_000, limits?: Partial<Limits>): Promise<{ ok: boolean; output: string }> {
    try {
      const r = await this.run({ files: {}, run: command, timeoutMs, slot: 0, limits: { cpuSeconds: 60, ...limits } });
      return { ok: r.exitCode === 0, output: (r.stdout + r.stderr).trim() };
    } catch (e) {
      return { ok: false, output: (e as Error).message };
    }
  }
}

/** Keeps the first `limit` bytes of a stream and counts the rest. */
class Capture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  total = 0;
  truncated = false;
  constructor(private readonly limit: number) {}
  add(b: Buffer): void {
    this.total += b.length;
    if (this.kept >= this.limit) { this.truncated = true; return; }
    const part = b.length > this.limit - this.kept ? b.subarray(0, this.limit - this.kept) : b;
    if (part.length < b.length) this.truncated = true;
    this.chunks.push(part);
    this.kept += part.length;
  }
  text(): string {
    const s = Buffer.concat(this.chunks).toString('utf8');
    return this.truncated ? `${s}\n[… truncated: ${this.total - this.kept} more bytes]` : s;
  }
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The script that runs inside the sandbox. fd 3: compile output; fd 4: events
 * (`setup-done`, `setup-failed <why>`, `compiled <status>`); fd 5: the collected file. The program
 * itself gets none of them.
 */
function driverScript(job: SandboxJob, inDir: string): string {
  const work = inDir === IN_DIR ? SANDBOX_DIR : join(inDir, 'sandbox');
  const lines = [
    'exec 0</dev/null',
    `cd ${quote(work)} || { echo "setup-failed no run directory" >&4; exit 125; }`,
    `cp -R ${quote(join(inDir, 'files'))}/. . || { echo "setup-failed copying the program" >&4; exit 125; }`,
  ];
  for (const step of job.setup ?? []) lines.push(`{ ${step} ; } >&3 2>&3 || { echo "setup-failed ${step.replace(/["$`\\]/g, '')}" >&4; exit 125; }`);
  lines.push('echo setup-done >&4');
  if (job.compile) {
    lines.push(`( ${job.compile} ) >&3 2>&3 3>&- 4>&- 5>&-`);
    lines.push('status=$?', 'echo "compiled $status" >&4', '[ "$status" -eq 0 ] || exit 0');
  }
  if (job.collect) {
    lines.push(`( ${job.run} ) 3>&- 4>&- 5>&-`, 'status=$?', `cat ${quote(job.collect)} >&5 2>/dev/null`, 'exit $status');
  } else {
    lines.push(`exec 3>&- 4>&- 5>&-`, `exec /bin/sh -c ${quote(job.run)}`);
  }
  return lines.join('\n') + '\n';
}

/**
 * Picks the strongest isolation that works here, by running a program in each candidate mode.
 * `RUNNER_SANDBOX` (bwrap-root | bwrap-userns | none) forces a mode.
 */
export async function detectIsolation(options: SandboxOptions & { uidBase?: number; force?: string } = {}): Promise<{ sandbox: Sandbox; failures: string[] }> {
  const isRoot = process.getuid?.() === 0;
  const uidBase = options.uidBase ?? 61000;
  const failures: string[] = [];
  const missing = ['setpriv', 'prlimit'].filter((c) => !which(c));
  if (!which('prlimit')) throw new SandboxError('prlimit (util-linux) is required to set resource limits');
  const candidates: Isolation[] = [];
  if (which('bwrap')) {
    if (isRoot && !missing.length) candidates.push({ mode: 'bwrap-root', uidBase, description: `bubblewrap (pid, network, ipc, uts, mount namespaces; read-only system; tmpfs run directory), each concurrent run as its own unprivileged uid (${uidBase}+slot) without capabilities, rlimits` });
    candidates.push({ mode: 'bwrap-userns', uidBase: null, description: 'bubblewrap with a user namespace (pid, network, ipc, uts, mount namespaces; read-only system; tmpfs run directory), rlimits' });
  } else {
    failures.push('bwrap not found (Debian: apt-get install bubblewrap)');
  }
  candidates.push({
    mode: 'none',
    uidBase: isRoot && which('setpriv') ? uidBase : null,
    description: `NO SANDBOX: rlimits${isRoot ? ', a separate uid' : ''} and a process-group kill only; network and file system are NOT isolated`,
  });
  const chosen = options.force ? candidates.filter((c) => c.mode === options.force) : candidates;
  if (!chosen.length) throw new SandboxError(`isolation mode ${options.force} is not possible here: ${failures.join('; ') || 'not root'}`);
  for (const isolation of chosen) {
    const sandbox = new Sandbox(isolation, options);
    const probe = await sandbox.probe('echo sandbox-ok', 20_000);
    if (probe.ok && probe.output.includes('sandbox-ok')) return { sandbox, failures };
    failures.push(`${isolation.mode}: ${probe.output.slice(0, 300)}`);
  }
  throw new SandboxError(`no isolation mode works here: ${failures.join('; ')}`);
}
