import { cruise } from 'dependency-cruiser';
const r = await cruise(['src','runtimes','runner','scripts'], { validate: false, tsPreCompilationDeps: true, doNotFollow: { path: 'node_modules' }, exclude: { path: 'node_modules' } }, undefined, {});
const top = (p) => { const m = p.match(/^(src\/[^/]+|runtimes|runner|scripts|tests|bench-data)/); return m ? m[1] : p; };
const edges = new Map();
for (const m of r.output.modules) for (const d of m.dependencies) {
  if (d.coreModule || d.dependencyTypes.includes('npm') || d.couldNotResolve) continue;
  const a = top(m.source), b = top(d.resolved); if (a === b) continue;
  const k = a + ' -> ' + b; (edges.get(k) ?? edges.set(k, []).get(k)).push(m.source + ' -> ' + d.resolved);
}
for (const [k, v] of [...edges].sort()) console.log(k, v.length, process.argv[2] ? '\n   ' + v.join('\n   ') : '');
