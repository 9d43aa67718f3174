/**
 * Builds bench-data/differential/<language>.jsonl from a checkout of Rosetta Code programs laid out
 * as Task/<task>/<language>/<file> (acmeism/RosettaCodeData's layout). Keeps programs that need no
 * input, files, network, clock or third-party package, and that the native toolchain runs to exit 0
 * within 5 s with the same stdout twice; stores each with the native result.
 *
 *   npx tsx scripts/differential-select.mts --git-dir DIR [--prefix scripts/Task] [--per 160]
 *     [--languages python,ruby] [--concurrency 2] [--timeout-ms 5000]
 *
 * TypeScript tries only the programs the JavaScript selection kept (javascript.jsonl in --out):
 * the rest fail under node already, and each tsx run costs seconds.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { nativeBinary, runNative } from '../runtimes/native/process.ts';
import { seededSample, stderrClass, type DifferentialRecord } from '../src/core/differential.ts';
import type { LanguageId } from '../src/contracts/index.ts';

const { values } = parseArgs({
  options: {
    'git-dir': { type: 'string' }, prefix: { type: 'string', default: 'Task' }, per: { type: 'string', default: '160' },
    languages: { type: 'string' }, concurrency: { type: 'string', default: '2' }, out: { type: 'string', default: 'bench-data/differential' },
    // C++'s includes the g++ compile, which a loaded machine slows most.
    'timeout-ms': { type: 'string', default: '5000' },
  },
});
const gitDir = values['git-dir'];
if (!gitDir) throw new Error('--git-dir is required');
const PER = Number(values.per);
const TIMEOUT_MS = Number(values['timeout-ms']);
const MAX_PROGRAM = 8 * 1024;
const MAX_STDOUT = 16 * 1024;

// Rosetta Code's language folder for each of ours; TypeScript reuses the JavaScript programs
// (run as .ts under tsx), as the source has almost no TypeScript folder.
const FOLDERS: Partial<Record<LanguageId, string[]>> = {
  python: ['python', 'Python'], javascript: ['javascript', 'JavaScript'], typescript: ['javascript', 'JavaScript'],
  ruby: ['ruby', 'Ruby'], php: ['php', 'PHP'], r: ['r', 'R'], perl: ['perl', 'Perl'], cpp: ['c++', 'C++'],
  shell: ['unix-shell', 'UNIX-Shell', 'bash'],
};

// Programs that read input, touch files or directories, the network, the clock or a display are left out
// unread: they cannot give the same output on two machines. (Random ones fall to the double run.)
const IMPURE = /\b(stdin|STDIN|readline|readLine|raw_input|input\s*\(|gets\b|cin\b|scanf|fgets|readLines|scan\s*\(|read\s+-|fopen|open\s*\(|File\.|ifstream|ofstream|file_get_contents|file_put_contents|socket|dns_|gethostby|require\(['"]fs['"]\)|opendir|readdir|Dir\b|glob|https?:|urllib|requests|Net::|LWP|curl|tkinter|turtle|Tk\b|document\.|window\.|alert\s*\(|prompt\s*\(|WScript|Date\b|date\b|time\s*\(|datetime|localtime|Sys\.time|Sys\.Date|clock|sleep|fork|[Tt]hread|plot|png\s*\(|pdf\s*\(|dev\.off|ARGV|argv|process\.argv|system\s*\(|exec\s*\()/;

const git = (...args: string[]) => execFileSync('git', ['--git-dir', gitDir, ...args], { maxBuffer: 1 << 28, encoding: 'utf8' });
const commit = git('rev-parse', 'HEAD').trim();
const prefix = values.prefix!.replace(/\/$/, '');
const files = git('ls-tree', '-r', '-l', 'HEAD', `${prefix}/`).split('\n').filter(Boolean).map((line) => {
  // "<mode> <type> <object> <size>\t<path>"
  const tab = line.indexOf('\t');
  return { size: Number(line.slice(0, tab).trim().split(/\s+/)[3]), path: line.slice(tab + 1) };
});

const languages = (values.languages?.split(',') ?? Object.keys(FOLDERS)) as LanguageId[];
await mkdir(values.out!, { recursive: true });
for (const language of languages) {
  const folders = FOLDERS[language]!;
  const keptByJavaScript = language === 'typescript' && existsSync(`${values.out}/javascript.jsonl`)
    ? new Set(readFileSync(`${values.out}/javascript.jsonl`, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as DifferentialRecord).path))
    : null;
  const candidates = files.filter(({ path, size }) => {
    const parts = path.slice(prefix.length + 1).split('/');
    return parts.length === 3 && folders.includes(parts[1] ?? '') && size > 0 && size <= MAX_PROGRAM && (!keptByJavaScript || keptByJavaScript.has(path));
  });
  const kept: DifferentialRecord[] = [];
  const tried = { n: 0, impure: 0, failed: 0, unstable: 0 };
  const queue = seededSample(candidates, candidates.length, 13);
  const worker = async () => {
    while (kept.length < PER && queue.length) {
      const { path } = queue.shift()!;
      tried.n++;
      const program = git('show', `HEAD:${path}`);
      if (IMPURE.test(program) || program.includes('\0')) { tried.impure++; continue; }
      const first = await runNative({ language, program, timeoutMs: TIMEOUT_MS });
      if (first.exitCode !== 0 || !first.stdout.trim() || first.stdout.length > MAX_STDOUT) { tried.failed++; continue; }
      const second = await runNative({ language, program, timeoutMs: TIMEOUT_MS });
      if (second.exitCode !== 0 || second.stdout !== first.stdout) { tried.unstable++; continue; }
      if (kept.length >= PER) break;
      kept.push({
        language, task: path.slice(prefix.length + 1).split('/')[0] ?? '', path, program,
        native: { exitCode: first.exitCode, stdout: first.stdout, stderr: stderrClass(first.stderr), runtime: first.runtime },
      });
    }
  };
  await Promise.all(Array.from({ length: Number(values.concurrency) }, worker));
  kept.sort((a, b) => a.path.localeCompare(b.path));
  await writeFile(`${values.out}/${language}.jsonl`, kept.map((r) => JSON.stringify(r)).join('\n') + '\n');
  console.log(`${language}: kept ${kept.length} of ${tried.n} tried (${candidates.length} candidates ≤ 8 KB${keptByJavaScript ? ' kept for JavaScript' : ''}; left out: ${tried.impure} input/files/clock/…, ${tried.failed} failed or no output natively, ${tried.unstable} not deterministic) [${nativeBinary(language).label}, source commit ${commit}]`);
}
