/**
 * The layers rule (docs/architecture.md, "Layers"), checked by `npm run check` through
 * scripts/check-dependencies.mjs. Paths are relative to the repository root.
 */
const TOP = '^(src/[^/]+|runtimes|runner|scripts)$';

/** One direction that must not be imported: modules matching `from` never import `to`. */
function forbid(name, from, to, comment) {
  return { name, comment, severity: 'error', from: { path: from }, to: { path: to } };
}

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
    forbid('core-stays-pure', '^src/core/', '^(src/(models|app|cli|store)|runtimes)/',
      'src/core is shared by page, CLI and runner: it knows contracts, not answer sources, runtimes, the store or a front end.'),
    forbid('runtimes-run-programs-only', '^runtimes/', '^src/(models|app|cli|store)/',
      'Runtimes get a finished program; they never see answer sources, the store or a front end.'),
    forbid('models-below-front-ends', '^src/models/', '^(src/(app|cli)|runtimes)/',
      'Answer sources are used by the page and the CLI, and never run programs.'),
    forbid('app-not-cli-or-runner', '^src/app/', '^(src/cli|runner)/',
      'The page is bundled for the browser: no CLI code, no runner service.'),
    forbid('cli-not-app', '^src/cli/', '^src/app/', 'The CLI shares src/core with the page, never the page itself.'),
    forbid('scripts-are-leaves', '^(src|runtimes|runner)/', '^scripts/',
      'Build and maintenance scripts use the code; shipped code never imports a script.'),
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
