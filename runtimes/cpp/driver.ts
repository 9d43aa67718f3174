/**
 * How a program goes through @yowasp/clang. Its `runClang` starts LLVM three times per program:
 * the driver with `-###` (which prints the compiler's and the linker's command lines and does
 * nothing else), then each of those commands. With the same flags and file names the driver
 * prints the same two lines for every program (it never reads the source), so the runtime asks it
 * once per page (`planJobs`; a later worker gets them with the first one's shared code:
 * `jobsFromBytes`) and then starts only the compiler and the linker (`runJobs`): one LLVM
 * instance, with its sysroot tree, fewer per program.
 */

export type Tree = { [name: string]: Tree | string | Uint8Array };
export interface RunOptions {
  stdout?: ((bytes: Uint8Array | null) => void) | null;
  stderr?: ((bytes: Uint8Array | null) => void) | null;
  decodeASCII?: boolean;
  fetchProgress?: (event: { totalLength: number; doneLength: number }) => void;
}
export interface ClangModule {
  runClang(args: string[] | null, files?: Tree, options?: RunOptions): Promise<Tree | undefined>;
  runLLVM(args: string[] | null, files?: Tree, options?: RunOptions): Promise<Tree | undefined>;
  Exit: new (...args: never[]) => Error & { code: number };
  version: string;
}

/**
 * The driver's jobs for `clang++ <args>` (argv of each, as runClang would run them), or null when
 * its answer is not the expected compile-then-link pair (the caller then uses runClang).
 */
export async function planJobs(clang: ClangModule, args: string[], files: Tree): Promise<string[][] | null> {
  const chunks: string[] = [];
  const decoder = new TextDecoder();
  const collect = (bytes: Uint8Array | null) => {
    if (bytes) chunks.push(decoder.decode(bytes, { stream: true }));
  };
  try {
    await clang.runLLVM(['clang++', '-###', ...args], files, { stdout: collect, stderr: collect, decodeASCII: false });
  } catch {
    return null;
  }
  const lines = (chunks.join('') + decoder.decode()).split('\n');
  // Anything but the version banner and the command lines (a warning, an error) and we do not guess.
  const jobs: string[][] = [];
  for (const line of lines) {
    if (line.startsWith(' "')) jobs.push(unquote(line));
    else if (line !== '' && line !== ' (in-process)' && !/^(clang version |Target: |Thread model: |InstalledDir:|Build config: )/.test(line)) return null;
  }
  return compileThenLink(jobs) ? jobs : null;
}

/** The driver's answer as runJobs expects it: a compile (`-cc1`), then the linker. */
function compileThenLink(jobs: string[][]): boolean {
  return jobs.length === 2 && jobs[0]!.includes('-cc1') && jobs[1]![0]!.endsWith('wasm-ld');
}

/** Planned jobs as bytes, for a later worker of the page (RuntimeShared.bytes). */
export function jobsToBytes(jobs: string[][]): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(jobs));
}

/** Jobs from `jobsToBytes`, or null when the bytes are not such jobs (the worker then plans its own). */
export function jobsFromBytes(bytes: unknown): string[][] | null {
  if (!(bytes instanceof Uint8Array)) return null;
  let jobs: unknown;
  try {
    jobs = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null;
  }
  const valid = Array.isArray(jobs) && jobs.every((job) => Array.isArray(job) && job.length > 0 && job.every((arg) => typeof arg === 'string'));
  return valid && compileThenLink(jobs as string[][]) ? (jobs as string[][]) : null;
}

/** Runs the planned jobs on `files` in turn, as runClang does after `-###`; throws what LLVM throws. */
export async function runJobs(clang: ClangModule, jobs: string[][], files: Tree, options: RunOptions): Promise<Tree | undefined> {
  let tree: Tree | undefined = files;
  for (const job of jobs) tree = await clang.runLLVM(job, tree, options);
  if (tree) delete tree.tmp; // (the object file between the two, as runClang drops it)
  return tree;
}

/** One `-###` line into its arguments: ` "a" "b c"` (the quoting @yowasp/clang's runClang reads). */
function unquote(line: string): string[] {
  const args = Array.from(line.matchAll(/ (?:([^ "]+)|"((?:[^"\\$]|\\["\\$])*)")/g), (m) => m[1] ?? m[2]!.replaceAll(/\\(["\\$])/g, '$1'));
  // The first job names no program ("" "clang++" "-cc1" …): LLVM's multi-tool picks it from the next.
  if (args[0] === '') args.shift();
  return args;
}
