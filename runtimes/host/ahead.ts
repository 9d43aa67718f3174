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
 * made), never for what a program did. A step that fails, ahead or at the run, is not tried
 * again (a half-done put-back leaves a state nobody checked): the next run throws RunNotStarted,
 * and its program goes to a new worker instead of getting a verdict (docs/security.md, "Every
 * program starts from a clean slate").
 */
export class AheadStep {
  /** 'due': the next run does the step; 'done': prepare did it since the last run; an Error: it failed. */
  private state: 'due' | 'done' | Error = 'due';

  constructor(private readonly step: () => void | Promise<void>) {}

  /** Does the step now; a failure is kept for the next run, which then does not start its program. */
  async prepare(): Promise<void> {
    try {
      await this.step();
      this.state = 'done';
    } catch (e) {
      this.state = e instanceof Error ? e : new Error(String(e));
    }
  }

  /** At a run's start, before its program: the step, unless prepare did it since the last run. */
  async ensure(): Promise<void> {
    const state = this.state;
    this.state = 'due';
    if (state === 'done') return;
    try {
      if (state instanceof Error) throw state;
      await this.step();
    } catch (e) {
      this.state = e instanceof Error ? e : new Error(String(e));
      throw new RunNotStarted(`the clean slate could not be made (${this.state.message})`);
    }
  }
}
