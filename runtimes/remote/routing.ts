/**
 * Where each language runs: in the page's own runtimes (the worker pool) or on a remote runner,
 * by a per-language choice. `auto` uses the in-browser runtime where its agreement with the
 * official verdicts is high (runtimes/host/catalog.ts `trustedInPage`) and, when a runner offers
 * the language, where it also meets the differential corpus's bar (`shortOnCorpus`); else the
 * runner when one offers the language, else nothing. A language that no route can run is absent from
 * `languages()`, so the engine reports it as unsupported (unavailable), never as failed. A program
 * the in-page runtime declines (RunResult.declined) is run by the runner when one offers its language.
 * Without any runner, a `remote` choice waits for one and `auto` applies. This file is the one
 * definition of the rule: the CLI, the page's run and its settings panel all route through it.
 */
import { InfrastructureError, type Executor, type LanguageId, type RunRequest, type RunResult } from '../../src/contracts';
import { shortOnCorpus, trustedInPage } from '../host/catalog';

export type RuntimeChoice = 'in-browser' | 'remote' | 'auto';
export type Route = 'in-browser' | 'remote';

export interface RoutingOptions {
  /** The in-browser runtimes (browser worker pool, or the same adapters in Node workers). */
  local: Executor | null;
  /** The remote runner(s). */
  remote: Executor | null;
  /** Per-language choice; missing languages use `auto`. */
  choices?: Partial<Record<LanguageId, RuntimeChoice>>;
  /** Whether `auto` may use a language's in-browser runtime (default: catalog.ts's `trustedInPage`). */
  trusted?: (language: LanguageId) => boolean;
  /** Whether `auto` prefers a runner that offers the language (default: catalog.ts's `shortOnCorpus`). */
  short?: (language: LanguageId) => boolean;
}

/**
 * Where `language` runs under `choice`, or null when nothing can run it. `remote` lists what the
 * runners offer; null means no runner is set at all.
 */
export function routeFor(
  language: LanguageId,
  choice: RuntimeChoice,
  local: readonly LanguageId[],
  remote: readonly LanguageId[] | null,
  trusted: (language: LanguageId) => boolean = trustedInPage,
  short: (language: LanguageId) => boolean = shortOnCorpus,
): Route | null {
  // Without a runner, `remote` has nowhere to go: the choice waits for one, and `auto` applies.
  if (remote === null && choice === 'remote') choice = 'auto';
  const inBrowser = local.includes(language);
  const onRunner = remote?.includes(language) ?? false;
  if (choice === 'in-browser') return inBrowser ? 'in-browser' : null;
  if (choice === 'remote') return onRunner ? 'remote' : null;
  // A runtime short of the differential corpus's bar yields to a runner that offers the language;
  // with none it still runs in the page (its figures are in the README and docs/fidelity.md).
  if (inBrowser && trusted(language) && !(onRunner && short(language))) return 'in-browser';
  return onRunner ? 'remote' : null;
}

export interface RoutedExecutor extends Executor {
  route(language: LanguageId): Route | null;
}

export function createRoutedExecutor(options: RoutingOptions): RoutedExecutor {
  const route = (language: LanguageId) => routeFor(
    language,
    options.choices?.[language] ?? 'auto',
    options.local?.languages() ?? [],
    options.remote?.languages() ?? null,
    options.trusted,
    options.short,
  );
  const all = () => [...new Set([...(options.local?.languages() ?? []), ...(options.remote?.languages() ?? [])])];
  return {
    route,
    languages: () => all().filter((l) => route(l) !== null),
    async run(request: RunRequest): Promise<RunResult> {
      const where = route(request.language);
      if (where === 'in-browser') {
        const result = await options.local!.run(request);
        // A program the in-page runtime declined goes to the runner when one offers the language.
        if (result.declined && options.remote?.languages().includes(request.language)) return options.remote.run(request);
        return result;
      }
      if (where === 'remote') return options.remote!.run(request);
      throw new InfrastructureError(`no runtime for ${request.language}`);
    },
    expect(language, runs) {
      if (route(language) === 'in-browser') options.local!.expect?.(language, runs);
    },
    dispose: async () => {
      await Promise.all([options.local?.dispose(), options.remote?.dispose()]);
    },
  };
}
