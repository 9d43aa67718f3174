/**
 * The layers rule (docs/architecture.md, "Layers"), checked by `npm run check` through
 * scripts/check-dependencies.mjs. Paths are relative to the repository root.
 */
const TOP = '^(src/[^/]+|runtimes|runner|scripts)$';

module.exports = {
  forbidden: [
    {
      name: 'contracts-is-a-leaf',
      comment: 'src/contracts imports nothing outside itself: no other folder, no library, no node: module.',
      severity: 'error',
      from: { path: '^src/contracts/' },
      to: { pathNot: '^src/contracts/' },
    },
    {
      name: 'no-folder-cycle',
      comment: 'Two top-level folders never depend on each other, however indirectly.',
      severity: 'error',
      scope: 'folder',
      from: { path: TOP },
      to: { path: TOP, circular: true },
    },
    {
      name: 'core-stays-pure',
      comment: 'src/core is shared by page, CLI and runner: it knows contracts, not answer sources, runtimes, the store or a front end.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^(src/(models|app|cli|store)|runtimes)/' },
    },
    {
      name: 'runtimes-run-programs-only',
      comment: 'Runtimes get a finished program; they never see answer sources, the store or a front end.',
      severity: 'error',
      from: { path: '^runtimes/' },
      to: { path: '^src/(models|app|cli|store)/' },
    },
    {
      name: 'models-below-front-ends',
      comment: 'Answer sources are used by the page and the CLI, and never run programs.',
      severity: 'error',
      from: { path: '^src/models/' },
      to: { path: '^(src/(app|cli)|runtimes)/' },
    },
    {
      name: 'app-not-cli-or-runner',
      comment: 'The page is bundled for the browser: no CLI code, no runner service.',
      severity: 'error',
      from: { path: '^src/app/' },
      to: { path: '^(src/cli|runner)/' },
    },
    {
      name: 'cli-not-app',
      comment: 'The CLI shares src/core with the page, never the page itself.',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: '^src/app/' },
    },
    {
      name: 'scripts-are-leaves',
      comment: 'Build and maintenance scripts use the code; shipped code never imports a script.',
      severity: 'error',
      from: { path: '^(src|runtimes|runner)/' },
      to: { path: '^scripts/' },
    },
  ],
  options: {
    // Type-only imports count: a type is as much a dependency as a value.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    // Folder-scope rules need the folder graph, which dependency-cruiser builds with its metrics.
    metrics: true,
  },
};
