/** What the page shows: which view, the results filters, and the problem open in the detail drawer. */
export type Page = 'evaluate' | 'generate' | 'runs' | 'leaderboard';

export class ViewState {
  /** Set-up and results, the benchmark generator, the run list, or the leaderboard of stored runs. */
  page = $state<Page>('evaluate');
  outcomeFilter = $state<string>('all');
  languageFilter = $state<string>('all');
  /** Problem index shown in the detail view. */
  selected = $state<number | null>(null);

  /** Another run is shown: no problem open, no filter. */
  resetResults(): void {
    this.selected = null;
    this.outcomeFilter = 'all';
    this.languageFilter = 'all';
  }
}
