// Writes node_modules/pyodide/python_stdlib.compiled.zip: Pyodide's standard library zip with a
// compiled .pyc beside every .py. Pyodide ships sources only, so every module CPython imports
// (its own start-up's, the harness's, a program's) was compiled from source in every worker and,
// for a module the snapshot does not hold, in every run. zipimport takes a .pyc before its .py;
// the .py files stay, so tracebacks and inspect still show stdlib source lines.
//
// Compiled by Pyodide's own CPython (the bytecode must be its version's), with each code object's
// file name the one a source import gives (/lib/python311.zip/<name>), as "unchecked hash" .pyc
// files: zipimport uses them without reading the source to compare. The catalog
// (runtimes/host/catalog.ts) hands this file to the runtime as its python_stdlib.zip.
import { existsSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../node_modules/pyodide/', import.meta.url));
const source = `${dir}python_stdlib.zip`;
const target = `${dir}python_stdlib.compiled.zip`;

const newer = (a, b) => statSync(a).mtimeMs >= statSync(b).mtimeMs;
if (!existsSync(source)) throw new Error('benchtop: pyodide is not installed (npm install)');
if (!(existsSync(target) && newer(target, source) && newer(target, fileURLToPath(import.meta.url)))) {
  const started = performance.now();
  const { loadPyodide } = await import(`${dir}pyodide.mjs`);
  const pyodide = await loadPyodide({ indexURL: dir });
  const count = pyodide.runPython(`
import sys, zipfile, importlib.util
from importlib._bootstrap_external import _code_to_hash_pyc
archive = f'/lib/python{sys.version_info.major}{sys.version_info.minor}.zip'
compiled = 0
with zipfile.ZipFile(archive) as src, zipfile.ZipFile('/tmp/compiled.zip', 'w') as out:
    for info in src.infolist():
        data = src.read(info)
        out.writestr(info, data)
        if not info.filename.endswith('.py'):
            continue
        code = compile(data, f'{archive}/{info.filename}', 'exec', dont_inherit=True)
        pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
        entry = zipfile.ZipInfo(info.filename + 'c', info.date_time)
        entry.compress_type = info.compress_type
        out.writestr(entry, bytes(pyc))
        compiled += 1
compiled`);
  const bytes = pyodide.FS.readFile('/tmp/compiled.zip');
  writeFileSync(`${target}.${process.pid}.partial`, bytes);
  renameSync(`${target}.${process.pid}.partial`, target);
  if (!process.argv.includes('--quiet')) {
    console.log(`Python standard library: ${count} modules compiled, ${(bytes.length / 1e6).toFixed(1)} MB (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
}
