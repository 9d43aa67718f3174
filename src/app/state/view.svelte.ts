/** What the page shows: which view, the results filters, and the problem open in the detail drawer. */
export type Page = 'evaluate' | 'generate' | 'runs' | 'leaderboard';
/** Columns the problem table sorts by: input order, title, outcome or run time. */
export type ProblemSort = 'index' | 'title' | 'outcome' | 'time';

export class ViewState {
  /** Set-up and results, the benchmark generator, the run list, or the leaderboard of stored runs. */
  page = $state<Page>('evaluate');
  outcomeFilter = $state<string>('all');
  languageFilter = $state<string>('all');
  /** Text the problem table's rows must hold in their title or id (any case); '' = all. */
  problemSearch = $state('');
  problemSort = $state<{ by: ProblemSort; descending: boolean }>({ by: 'index', descending: false });
  /** Problem index shown in the detail view. */
  selected = $state<number | null>(null);

  /** Another run is shown: no problem open, no filter. */
  resetResults(): void {
    this.selected = null;
    this.outcomeFilter = 'all';
    this.languageFilter = 'all';
    this.problemSearch = '';
  }

  /** A click on a sortable header: that column ascending, or the other way round if it already was. */
  sortProblems(by: ProblemSort): void {
    const same = this.problemSort.by === by;
    this.problemSort = { by, descending: same ? !this.problemSort.descending : false };
  }
}
