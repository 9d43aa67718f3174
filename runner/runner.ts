/**
 * Start-up of the runner: configuration (environment and `--upstream`), isolation self-test,
 * toolchain probes, HTTP server. `npm run runner` calls this through runner/main.ts; tests call it
 * in-process.
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { ToolchainRunner, toolchainBinds } from './execute';
import { detectIsolation, type Sandbox } from './sandbox';
import { createRunnerServer, type RunnerServer } from './server';

export interface RunnerConfig {
  port: number;
  host: string;
  token?: string;
  allowedOrigins: string[];
  /** Host names accepted besides loopback and the listen address (RUNNER_ALLOWED_HOSTS). */
  allowedHosts?: string[];
  maxConcurrency: number;
  queueLimit: number;
  maxTimeoutSeconds: number;
  upstream?: string;
  upstreamToken?: string;
  cacheDir?: string;
  /** Forces an isolation mode (bwrap-root, bwrap-userns, none). */
  sandboxMode?: string;
  /** Allows mode `none` (no namespaces). */
  allowUnsandboxed: boolean;
  uidBase: number;
  /** RLIMIT_AS of a run, MiB (JVM languages get more and cap their heap with flags). */
  memoryMb?: number;
  /** Where runs write their host-side files (default: the system's temp directory). */
  tmpDir?: string;
  /** Directories put first on the PATH inside the sandbox (RUNNER_EXTRA_PATH). */
  extraPath?: string[];
  /** LANG/LC_ALL inside the sandbox (RUNNER_LOCALE); default none, the POSIX locale. */
  locale?: string;
  /** TZ inside the sandbox (RUNNER_TZ). */
  timezone?: string;
}

export class ConfigError extends Error {}

function integer(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`${name} must be a whole number of at least ${min}, got "${value}"`);
  return n;
}

export function configFromEnvironment(env: NodeJS.ProcessEnv, argv: string[]): RunnerConfig {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { upstream: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' } },
      strict: true,
    }));
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  const upstream = values.upstream ?? env.RUNNER_UPSTREAM;
  if (upstream && !/^https?:\/\//.test(upstream)) throw new ConfigError(`--upstream must be an http(s) URL, got "${upstream}"`);
  const maxConcurrency = integer('MAX_CONCURRENCY', env.MAX_CONCURRENCY, availableParallelism(), 1);
  return {
    port: integer('PORT', values.port ?? env.PORT, 8080, 0),
    host: values.host ?? env.HOST ?? '127.0.0.1',
    token: env.RUNNER_TOKEN || undefined,
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '').split(',').map((s) => s.trim().replace(/\/+$/, '')).filter(Boolean),
    allowedHosts: (env.RUNNER_ALLOWED_HOSTS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    maxConcurrency,
    queueLimit: integer('QUEUE_LIMIT', env.QUEUE_LIMIT, 8 * maxConcurrency, 0),
    maxTimeoutSeconds: integer('RUNNER_MAX_TIMEOUT', env.RUNNER_MAX_TIMEOUT, 120, 1),
    upstream,
    upstreamToken: env.RUNNER_UPSTREAM_TOKEN || undefined,
    cacheDir: env.RUNNER_CACHE_DIR || undefined,
    sandboxMode: env.RUNNER_SANDBOX || undefined,
    allowUnsandboxed: env.RUNNER_ALLOW_UNSANDBOXED === '1',
    uidBase: integer('RUNNER_UID_BASE', env.RUNNER_UID_BASE, 61000, 1000),
    memoryMb: env.RUNNER_MEMORY_MB ? integer('RUNNER_MEMORY_MB', env.RUNNER_MEMORY_MB, 4096, 256) : undefined,
    tmpDir: env.RUNNER_TMPDIR || undefined,
    extraPath: env.RUNNER_EXTRA_PATH ? env.RUNNER_EXTRA_PATH.split(':').filter(Boolean) : undefined,
    locale: env.RUNNER_LOCALE || undefined,
    timezone: env.RUNNER_TZ || undefined,
  };
}

export interface PreparedExecutor {
  executor: ToolchainRunner;
  sandbox: Sandbox;
  /** Resolves when every toolchain has been probed. */
  ready: Promise<void>;
  /** Isolation modes that were tried and failed, for the banner. */
  failures: string[];
}

/** The isolation self-test and the toolchain probes (several runner instances may share one). */
export async function prepareExecutor(config: Pick<RunnerConfig, 'sandboxMode' | 'allowUnsandboxed' | 'uidBase' | 'cacheDir' | 'memoryMb' | 'tmpDir' | 'extraPath' | 'locale' | 'timezone'>): Promise<PreparedExecutor> {
  const binds = toolchainBinds();
  const limits = config.memoryMb ? { addressSpaceBytes: config.memoryMb * 1024 ** 2 } : {};
  const { sandbox, failures } = await detectIsolation({ uidBase: config.uidBase, force: config.sandboxMode, systemBinds: binds, limits, tmpRoot: config.tmpDir, extraPath: config.extraPath, locale: config.locale, timezone: config.timezone });
  if (sandbox.isolation.mode === 'none' && !config.allowUnsandboxed) {
    throw new ConfigError(
      `no sandbox is possible here (${failures.join('; ')}). Programs would run with rlimits only, ` +
      'with access to the network and the file system. Install bubblewrap (and allow user namespaces), ' +
      'or set RUNNER_ALLOW_UNSANDBOXED=1 to run anyway on a machine that holds nothing of value.',
    );
  }
  const executor = new ToolchainRunner(sandbox, { cacheDir: config.cacheDir });
  const ready = executor.probe(binds);
  return { executor, sandbox, ready, failures };
}

export interface StartedRunner extends RunnerServer {
  url: string;
  prepared?: PreparedExecutor;
}

export async function startRunner(config: RunnerConfig, options: { prepared?: PreparedExecutor; log?: (line: string) => void } = {}): Promise<StartedRunner> {
  const log = options.log ?? (() => {});
  if (config.upstream) {
    const runner = createRunnerServer({
      upstream: config.upstream, upstreamToken: config.upstreamToken, token: config.token, allowedOrigins: config.allowedOrigins, allowedHosts: config.allowedHosts,
      maxConcurrency: config.maxConcurrency, queueLimit: config.queueLimit, maxTimeoutSeconds: config.maxTimeoutSeconds, log,
    });
    return { ...runner, url: await runner.listen(config.port, config.host) };
  }
  const prepared = options.prepared ?? await prepareExecutor(config);
  const runner = createRunnerServer({
    executor: prepared.executor, ready: prepared.ready, isolation: `${prepared.sandbox.isolation.mode}: ${prepared.sandbox.isolation.description}`,
    token: config.token, allowedOrigins: config.allowedOrigins, allowedHosts: config.allowedHosts, maxConcurrency: config.maxConcurrency, queueLimit: config.queueLimit,
    maxTimeoutSeconds: config.maxTimeoutSeconds, log,
  });
  return { ...runner, url: await runner.listen(config.port, config.host), prepared };
}
