import { RunNotStarted } from '../../src/contracts';

/**
 * The step that puts a runtime back to where every program starts (its snapshot put back, a new
 * instance if the last program broke or grew the old one), done ahead of the next run when the
 * host says so (LanguageRuntime.prepare: right after it posted a result, so the work overlaps the
 * result's way to the page and the next program's way here), or else at the run's start.
 *
 * Done ahead only where nothing of the last program can run between the two (the runtimes that
 * use it leave no callback behind: no timer, promise or host handle reaches their instance after a
 * run), and where the step can fail only for the host's reasons (a new instance that cannot be
 * made), never for what a program did. A failure ahead is left for the next run, which does the
 * step again; if that fails too, the run throws RunNotStarted, and its program goes to a new
 * worker instead of getting a verdict (docs/security.md, "Every program starts from a clean slate").
 */
export class AheadStep {
  private done = false;

  constructor(private readonly step: () => void | Promise<void>) {}

  /** Does the step now; a failure is left for the next run, which does it again and meets it there. */
  async prepare(): Promise<void> {
    this.done = false;
    try {
      await this.step();
      this.done = true;
    } catch {
      // The run's own attempt reports it (or succeeds: a new instance).
    }
  }

  /** At a run's start, before its program: the step, unless prepare did it since the last run. */
  async ensure(): Promise<void> {
    const done = this.done;
    this.done = false;
    if (done) return;
    try {
      await this.step();
    } catch (e) {
      throw new RunNotStarted(`the clean slate could not be made (${e instanceof Error ? e.message : String(e)})`);
    }
  }
}
