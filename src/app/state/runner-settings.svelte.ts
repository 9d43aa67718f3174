/**
 * The "Remote runner" settings of the page (issue 3, the client): runner URLs, token, a
 * connection test (GET /languages) and a per-language choice between the in-browser runtime and
 * the runner. URLs and choices are saved in localStorage; the token lives in memory only unless
 * the user ticks "remember on this device" (like the provider key). The token never goes into
 * the run store, results, exports or URLs.
 */
import { connectRemoteExecutor, askRunner, type RemoteExecutor, type RunnerStatus } from '../../../runtimes/remote/executor';
import { RemoteRunnerClient, normalizeRunnerUrl } from '../../../runtimes/remote/client';
import type { RuntimeChoice } from '../../../runtimes/remote/routing';
import { normalizeLanguage, type LanguageId } from '../../contracts';
import { allowConnectOrigin, isConnectAllowed, normalizeOrigin } from '../lib/csp';

const SETTINGS_KEY = 'benchtop.runner-settings';
const TOKEN_KEY = 'benchtop.runner-token';

export const RUNTIME_CHOICES: readonly RuntimeChoice[] = ['auto', 'in-browser', 'remote'];

/** The runner URLs of a text field: one per line (blank lines and `#` comments skipped), deduplicated. */
export function parseRunnerUrls(text: string): string[] {
  const urls = text
    .split(/\r?\n/)
    .map((line) => normalizeRunnerUrl(line))
    .filter((line) => line !== '' && !line.startsWith('#'));
  return [...new Set(urls)];
}

/** Why a runner URL cannot be used (null when it can). */
export function runnerUrlProblem(url: string): string | null {
  if (!/^https?:\/\/[^/]/.test(url)) return `not an http(s) URL: ${url}`;
  if (!normalizeOrigin(url)) return `${url}: only https, or http on this machine (localhost, 127.0.0.1), can be used`;
  return null;
}

/** The distinct origins of these URLs (for the connection allow-list). */
export function runnerOrigins(urls: readonly string[]): string[] {
  return [...new Set(urls.map((u) => normalizeOrigin(u)).filter((o): o is string => !!o))];
}

/** Languages the tested runners offer (available), or null when no test result says. */
export function offeredLanguages(statuses: readonly RunnerStatus[]): LanguageId[] {
  const out = new Set<LanguageId>();
  for (const s of statuses) {
    for (const l of s.languages ?? []) {
      const id = l.available ? normalizeLanguage(l.id) : null;
      if (id) out.add(id);
    }
  }
  return [...out];
}

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

interface SavedRunner {
  urlsText: string;
  choices: Partial<Record<LanguageId, RuntimeChoice>>;
}

export class RunnerSettings {
  urlsText = $state('');
  choices = $state<Partial<Record<LanguageId, RuntimeChoice>>>({});
  private tokenValue = $state('');
  private remembered = $state(false);

  testing = $state(false);
  tested = $state.raw<RunnerStatus[] | null>(null);
  testError = $state<string | null>(null);

  constructor() {
    this.restore();
    $effect.root(() => {
      $effect(() => this.save({ urlsText: this.urlsText, choices: { ...this.choices } }));
    });
  }

  get urls(): string[] {
    return parseRunnerUrls(this.urlsText);
  }

  /** Whether runs use a runner (at least one URL set). */
  get configured(): boolean {
    return this.urls.length > 0;
  }

  get problems(): string[] {
    return this.urls.map(runnerUrlProblem).filter((p): p is string => !!p);
  }

  /** Runner origins the page's connection policy does not allow yet. */
  get blockedOrigins(): string[] {
    return runnerOrigins(this.urls).filter((o) => !isConnectAllowed(o));
  }

  get token(): string {
    return this.tokenValue;
  }

  set token(value: string) {
    this.tokenValue = value;
    if (this.remembered) this.writeToken(value);
  }

  get rememberToken(): boolean {
    return this.remembered;
  }

  set rememberToken(on: boolean) {
    this.remembered = on;
    this.writeToken(on ? this.tokenValue : null);
  }

  /** Languages the last connection test found available. */
  get offered(): LanguageId[] {
    return this.tested ? offeredLanguages(this.tested) : [];
  }

  choiceFor(language: LanguageId): RuntimeChoice {
    return this.choices[language] ?? 'auto';
  }

  setChoice(language: LanguageId, choice: RuntimeChoice): void {
    const { [language]: _old, ...rest } = this.choices;
    this.choices = choice === 'auto' ? rest : { ...rest, [language]: choice };
  }

  allowAndReload(origin: string): void {
    allowConnectOrigin(origin);
    this.save({ urlsText: this.urlsText, choices: { ...this.choices } });
    location.reload();
  }

  /** GET /languages of every runner. */
  async test(): Promise<void> {
    this.testError = null;
    this.tested = null;
    const problems = this.problems;
    if (!this.configured) {
      this.testError = 'Enter at least one runner URL.';
      return;
    }
    if (problems.length) {
      this.testError = problems.join('; ');
      return;
    }
    const blocked = this.blockedOrigins;
    if (blocked.length) {
      this.testError = blocked.map((o) => `origin not allowed: Allow ${o} and reload`).join('; ');
      return;
    }
    this.testing = true;
    try {
      const client = new RemoteRunnerClient({ urls: this.urls, token: this.token || undefined, attempts: 2 });
      this.tested = await Promise.all(client.urls.map((url) => askRunner(client, url)));
    } catch (e) {
      this.testError = (e as Error).message;
    } finally {
      this.testing = false;
    }
  }

  /** Connects to the runners for a run; fails when none of them answers. */
  async connect(onRetry: (message: string) => void): Promise<RemoteExecutor> {
    const problems = this.problems;
    if (problems.length) throw new Error(`Remote runner: ${problems.join('; ')}`);
    const blocked = this.blockedOrigins;
    if (blocked.length) throw new Error(`Remote runner: origin not allowed: ${blocked.join(', ')}. Allow it in the Remote runner settings and reload.`);
    const remote = await connectRemoteExecutor({
      urls: this.urls,
      token: this.token || undefined,
      maxInFlightPerUrl: 8,
      onRetry: (e) => onRetry(`retry ${e.attempt} in ${Math.round(e.delayMs / 100) / 10} s: ${e.reason}`),
    });
    if (remote.runners.every((r) => r.error)) {
      throw new Error(`No remote runner answered: ${remote.runners.map((r) => `${r.url}: ${r.error}`).join('; ')}`);
    }
    return remote;
  }

  private restore(): void {
    const s = storage();
    try {
      const saved = JSON.parse(s?.getItem(SETTINGS_KEY) ?? '{}') as Partial<SavedRunner>;
      if (typeof saved.urlsText === 'string') this.urlsText = saved.urlsText;
      if (saved.choices && typeof saved.choices === 'object') {
        const choices: Partial<Record<LanguageId, RuntimeChoice>> = {};
        for (const [key, value] of Object.entries(saved.choices)) {
          const id = normalizeLanguage(key);
          if (id && RUNTIME_CHOICES.includes(value as RuntimeChoice)) choices[id] = value as RuntimeChoice;
        }
        this.choices = choices;
      }
    } catch {
      /* bad saved settings: defaults */
    }
    const token = s?.getItem(TOKEN_KEY);
    if (token !== null && token !== undefined) {
      this.tokenValue = token;
      this.remembered = true;
    }
  }

  private save(settings: SavedRunner): void {
    storage()?.setItem(SETTINGS_KEY, JSON.stringify(settings));
  }

  private writeToken(token: string | null): void {
    const s = storage();
    if (!s) return;
    if (token === null) s.removeItem(TOKEN_KEY);
    else s.setItem(TOKEN_KEY, token);
  }
}
