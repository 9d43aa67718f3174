/**
 * Where programs run: the page's own runtimes (worker pool), the remote runner settings, and the
 * routing between them, which runtimes/remote/routing.ts alone decides.
 */
import { createBrowserExecutor } from '../../../runtimes/host/browser';
import { createRoutedExecutor, routeFor, type Route } from '../../../runtimes/remote/routing';
import type { Executor, LanguageId } from '../../contracts';
import { RunnerSettings } from './runner-settings.svelte';

export class Runtimes {
  /** Remote runner URLs, token and per-language choice. */
  readonly runner = new RunnerSettings();
  /** Latest message of each runtime ("loading Pyodide (13 MB)…", "… ready"). */
  status = $state<Record<string, string>>({});
  private executor: Executor | null = null;
  executorError = $state<string | null>(null);

  constructor() {
    try {
      this.executor = createBrowserExecutor({
        onStatus: (language, message) => {
          this.status = { ...this.status, [language]: message };
        },
      });
    } catch (e) {
      this.executorError = `Could not start the runtimes: ${(e as Error).message}`;
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
