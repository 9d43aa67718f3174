/**
 * Where programs run: the page's own runtimes (worker pool), the remote runner settings, and the
 * routing between them, which runtimes/remote/routing.ts alone decides.
 */
import { createBrowserExecutor, downloadPlan, type DownloadPlan } from '../../../runtimes/host/browser';
import type { DownloadProgress } from '../../../runtimes/host/runtime-files';
import { createRoutedExecutor, routeFor, type Route } from '../../../runtimes/remote/routing';
import type { Executor, LanguageId } from '../../contracts';
import type { PoolExecutor } from '../../../runtimes/host/pool';
import { RunnerSettings } from './runner-settings.svelte';

/**
 * Runtimes started when a dataset that has their problems is loaded (files cached): Python, whose
 * load (about 2 s on 2 cores) is most of its first result and which most datasets have. Not the
 * others: clang and webR cost seconds of CPU and about 600 MB each, QuickJS loads in 0.2 s.
 */
const WARM_AHEAD: readonly LanguageId[] = ['python'];

export class Runtimes {
  /** Remote runner URLs, token and per-language choice. */
  readonly runner = new RunnerSettings();
  /** Latest message of each runtime ("loading Pyodide (17 MB)…", "… ready"). */
  status = $state<Record<string, string>>({});
  /** Bytes of each runtime's files at hand while they download (absent: no download this visit). */
  downloads = $state<Record<string, DownloadProgress>>({});
  /**
   * When runtime downloads were going on (start, end or null while one is): the ETA leaves this
   * time out, since a second run downloads nothing.
   */
  downloadSpans = $state<Array<[number, number | null]>>([]);
  private executor: PoolExecutor | null = null;
  executorError = $state<string | null>(null);

  constructor() {
    try {
      this.executor = createBrowserExecutor({
        onStatus: (language, message) => {
          this.status = { ...this.status, [language]: message };
          // Any other news (ready, or a failure) ends its download, even one that never reported done.
          const download = this.downloads[language];
          if (download && !download.done && !/^(downloading|a cached runtime file)/.test(message)) this.noteDownload(language, { ...download, done: true });
        },
        onProgress: (language, progress) => this.noteDownload(language, progress),
      });
    } catch (e) {
      this.executorError = `Could not start the runtimes: ${(e as Error).message}`;
    }
  }

  private noteDownload(language: LanguageId, progress: DownloadProgress): void {
    const wasActive = Object.values(this.downloads).some((d) => !d.done);
    this.downloads = { ...this.downloads, [language]: progress };
    const active = Object.values(this.downloads).some((d) => !d.done);
    const now = Date.now();
    if (active && !wasActive) this.downloadSpans = [...this.downloadSpans, [now, null]];
    if (!active && wasActive) this.downloadSpans = this.downloadSpans.map(([s, e]) => [s, e ?? now]);
  }

  /** Whether a runtime download is going on now. */
  get downloading(): boolean {
    return Object.values(this.downloads).some((d) => !d.done);
  }

  /** Milliseconds of runtime downloads between `from` and `to`. */
  downloadMsBetween(from: number, to: number): number {
    return this.downloadSpans.reduce((ms, [s, e]) => ms + Math.max(0, Math.min(e ?? to, to) - Math.max(s, from)), 0);
  }

  /** What running `languages` in the page would download now (sizes from the build, cached from Cache Storage). */
  plan(languages: readonly LanguageId[]): Promise<DownloadPlan> {
    return downloadPlan(languages.filter((l) => this.local.includes(l) && this.routeOf(l) === 'in-browser'));
  }

  /**
   * Starts, ahead of Run, the runtimes of WARM_AHEAD among `languages` (a dataset's) that would
   * run in the page and whose files this browser already holds: a returning user's first result
   * then does not wait for the runtime to load. Nothing is downloaded for it (a runtime whose files
   * are not all cached waits for Run, where the download plan is shown first).
   */
  async warmAhead(languages: readonly LanguageId[]): Promise<void> {
    const wanted = WARM_AHEAD.filter((l) => languages.includes(l) && this.local.includes(l) && this.routeOf(l) === 'in-browser');
    for (const language of wanted) {
      const plan = (await downloadPlan([language]).catch(() => null))?.languages[0];
      if (plan && plan.bytes > 0 && plan.cachedBytes === plan.bytes) this.executor?.warm(language);
    }
  }

  /** Languages the page's own runtimes can run. */
  get local(): readonly LanguageId[] {
    return this.executor?.languages() ?? [];
  }

  /** Where `language` would run now: with a runner, as its last connection test found. */
  routeOf(language: LanguageId): Route | null {
    return routeFor(language, this.runner.choiceFor(language), this.local, this.runner.configured ? this.runner.offered : null);
  }

  /** Languages that can run here: in the page, or on the runner. */
  get runnable(): readonly LanguageId[] {
    return [...new Set([...this.local, ...(this.runner.configured ? this.runner.offered : [])])].filter((l) => this.routeOf(l) !== null);
  }

  /** Throws when the page's runtimes could not start. */
  ensureStarted(): void {
    if (!this.executor) throw new Error(this.executorError ?? 'no executor');
  }

  /** The executor of a run: the page's runtimes, routed per language to the runner when one is set. */
  async forRun(): Promise<Executor> {
    const local = this.executor!;
    // Routed even without a runner: `auto` skips in-page runtimes whose agreement is too low.
    if (!this.runner.configured) return createRoutedExecutor({ local, remote: null, choices: { ...this.runner.choices } });
    const remote = await this.runner.connect((message) => {
      this.status = { ...this.status, 'remote runner': message };
    });
    const described = remote.runners.map((r) => (r.error ? `${r.url}: ${r.error}` : `${r.url}: ${r.official ? 'official sandbox' : `${r.languages?.filter((l) => l.available).length ?? 0} languages`}`));
    this.status = { ...this.status, 'remote runner': described.join('; ') };
    // Not the routed executor's dispose: it would dispose the page's runtimes too.
    return createRoutedExecutor({ local, remote, choices: { ...this.runner.choices } });
  }
}
