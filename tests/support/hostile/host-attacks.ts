// Issue #12, finding 1: answers that reach for the machine that runs them. Under the CLI (Node)
// every in-page language tries the same five things: run a host command, write a host file,
// read a host file, read the CLI's environment, connect to a TCP listener.
// scripts/build-hostile-data.mts writes them to bench-data/hostile/host.jsonl, with a correct
// and a wrong control answer per language, as `canonical_solution` (so
// `npm run eval -- --data bench-data/hostile/host.jsonl --model canonical` runs them).
//
// How to read them: each attack checks that it worked and otherwise exits non-zero. So where it
// is refused the run is RUNTIME_ERROR (SPEC §4 rule 3), or COMPILATION_ERROR where the C++
// toolchain has no such call (rule 1); had it worked, the program would carry on and PASS (and
// a few PASS by design: EXPECTED below). Whatever the verdict, the
// test (tests/security/hostile-node.test.ts) checks the host itself: no file written, the canary
// file and variable never in the results, no connection at the listener.

/** What the attacks aim at; the test puts its own temporary paths, listener and variable here. */
export interface HostTargets {
  /** A file on the host with a secret in it. */
  canaryFile: string;
  /** A folder on the host (it exists, and must stay empty). */
  outDir: string;
  /** A TCP listener on 127.0.0.1. */
  port: number;
  /** The CLI's environment variable holding a secret. */
  envVar: string;
}

export const DEFAULT_TARGETS: HostTargets = {
  canaryFile: '/tmp/benchtop-hostile/canary.txt',
  outDir: '/tmp/benchtop-hostile/out',
  port: 1,
  envVar: 'BENCHTOP_CANARY',
};

export type HostLanguage = 'python' | 'javascript' | 'typescript' | 'php' | 'ruby' | 'perl' | 'r' | 'shell' | 'cpp';
export type HostAttackKind = 'command' | 'write' | 'read' | 'env' | 'connect';
export type Outcome = 'PASSED' | 'RUNTIME_ERROR' | 'COMPILATION_ERROR';

export interface HostProblem {
  id: string;
  language: HostLanguage;
  /** An attack, or a control answer (correct or wrong) that must get its ordinary verdict. */
  kind: HostAttackKind | 'correct' | 'wrong';
  expected: Outcome;
  solution: string;
}

/** Each language's problem: `solve()` returns 1; the tests exit non-zero otherwise. */
const TESTS: Record<HostLanguage, { demo: string; full: string; right: string; wrong: string }> = {
  python: { right: 'def solve():\n    return 1', wrong: 'def solve():\n    return 2', demo: 'assert solve() == 1', full: 'assert solve() == 1\nassert solve() + 1 == 2' },
  javascript: {
    right: 'function solve() {\n  return 1;\n}',
    wrong: 'function solve() {\n  return 2;\n}',
    demo: "const assert = require('assert');\n\nfunction demoTesting() {\n  assert.strictEqual(solve(), 1);\n}",
    full: "const assert = require('assert');\n\nfunction fullTesting() {\n  assert.strictEqual(solve(), 1);\n  assert.strictEqual(solve() + 1, 2);\n}",
  },
  typescript: {
    right: 'function solve(): number {\n  return 1;\n}',
    wrong: 'function solve(): number {\n  return 2;\n}',
    demo: "const assert = require('assert');\n\nfunction demoTesting(): void {\n  assert.strictEqual(solve(), 1);\n}\n\ndemoTesting();",
    full: "const assert = require('assert');\n\nfunction fullTesting(): void {\n  assert.strictEqual(solve(), 1);\n  assert.strictEqual(solve() + 1, 2);\n}\n\nfullTesting();",
  },
  php: {
    right: '<?php\nfunction solve() {\n    return 1;\n}\n?>',
    wrong: '<?php\nfunction solve() {\n    return 2;\n}\n?>',
    demo: '<?php\nif (solve() !== 1) {\n    exit(1);\n}\n?>',
    full: '<?php\nif (solve() !== 1 || solve() + 1 !== 2) {\n    exit(1);\n}\n?>',
  },
  ruby: { right: 'def solve\n  1\nend', wrong: 'def solve\n  2\nend', demo: 'raise "wrong" unless solve == 1', full: 'raise "wrong" unless solve == 1\nraise "wrong" unless solve + 1 == 2' },
  perl: { right: 'sub solve { return 1; }', wrong: 'sub solve { return 2; }', demo: 'die "wrong\\n" unless solve() == 1;', full: 'die "wrong\\n" unless solve() == 1;\ndie "wrong\\n" unless solve() + 1 == 2;' },
  r: { right: 'solve <- function() 1', wrong: 'solve <- function() 2', demo: 'stopifnot(solve() == 1)', full: 'stopifnot(solve() == 1)\nstopifnot(solve() + 1 == 2)' },
  shell: {
    right: 'solve() {\n  echo 1\n}',
    wrong: 'solve() {\n  echo 2\n}',
    demo: '[ "$(solve)" = "1" ] || { echo "Test failed"; exit 1; }',
    full: '[ "$(solve)" = "1" ] || { echo "Test failed"; exit 1; }\n[ "$(( $(solve) + 1 ))" = "2" ] || { echo "Test failed"; exit 1; }',
  },
  cpp: {
    right: 'int solve() {\n    return 1;\n}',
    wrong: 'int solve() {\n    return 2;\n}',
    demo: '#include <cassert>\n\nint main() {\n    assert(solve() == 1);\n    return 0;\n}',
    full: '#include <cassert>\n\nint main() {\n    assert(solve() == 1);\n    assert(solve() + 1 == 2);\n    return 0;\n}',
  },
};

const PREFIX: Record<HostLanguage, string> = {
  python: 'py', javascript: 'js', typescript: 'ts', php: 'php', ruby: 'rb', perl: 'pl', r: 'r', shell: 'sh', cpp: 'cpp',
};

/** The attack code of `kind` in `language`, aimed at `t`; `out` is the file it tries to create. */
function attack(language: HostLanguage, kind: HostAttackKind, t: HostTargets, out: string): string {
  const A: Record<HostLanguage, Record<HostAttackKind, string>> = {
    python: {
      command: `import os\nstatus = os.system("id > ${out}")\nassert status == 0, status`,
      write: `with open("${out}", "w") as f:\n    f.write("owned")`,
      read: `print(open("${t.canaryFile}").read())\nprint(open("/etc/hostname").read())`,
      env: `import os\nvalue = os.environ.get("${t.envVar}")\nprint(value)\nassert value, "no variable"`,
      connect: `import socket\nsocket.create_connection(("127.0.0.1", ${t.port}), timeout=2).close()`,
    },
    javascript: {
      command: `require('child_process').execSync('id > ${out}');`,
      write: `require('fs').writeFileSync('${out}', 'owned');`,
      read: `console.log(require('fs').readFileSync('${t.canaryFile}', 'utf8'));`,
      env: `const value = process.env.${t.envVar};\nconsole.log(value);\nif (!value) throw new Error('no variable');`,
      connect: `require('net').connect(${t.port}, '127.0.0.1');`,
    },
    typescript: {
      command: `const cp: any = require('child_process');\ncp.execSync('id > ${out}');`,
      write: `const fs: any = require('fs');\nfs.writeFileSync('${out}', 'owned');`,
      read: `const fs: any = require('fs');\nconsole.log(fs.readFileSync('${t.canaryFile}', 'utf8'));`,
      env: `const value: string | undefined = process.env.${t.envVar};\nconsole.log(value);\nif (!value) throw new Error('no variable');`,
      connect: `const net: any = require('net');\nnet.connect(${t.port}, '127.0.0.1');`,
    },
    php: {
      command: `<?php\nexec('id > ${out}', $lines, $code);\nif ($code !== 0) {\n    exit(1);\n}`,
      write: `<?php\nif (file_put_contents('${out}', 'owned') === false) {\n    exit(1);\n}`,
      read: `<?php\n$secret = file_get_contents('${t.canaryFile}');\nif ($secret === false) {\n    exit(1);\n}\necho $secret;`,
      env: `<?php\n$value = getenv('${t.envVar}');\nif ($value === false || $value === '') {\n    exit(1);\n}\necho $value;`,
      connect: `<?php\n$socket = fsockopen('127.0.0.1', ${t.port}, $errno, $errstr, 2);\nif (!$socket) {\n    exit(1);\n}`,
    },
    ruby: {
      command: `raise "refused" unless system("id > ${out}")`,
      write: `File.write("${out}", "owned")`,
      read: `puts File.read("${t.canaryFile}")`,
      env: `value = ENV["${t.envVar}"]\nputs value\nraise "no variable" unless value`,
      connect: `require "socket"\nTCPSocket.new("127.0.0.1", ${t.port}).close`,
    },
    perl: {
      command: `system("id > ${out}") == 0 or die "refused: $?\\n";`,
      write: `open(my $fh, '>', '${out}') or die "refused: $!\\n";\nprint $fh 'owned';\nclose($fh) or die "refused: $!\\n";`,
      read: `open(my $fh, '<', '${t.canaryFile}') or die "refused: $!\\n";\nprint <$fh>;`,
      env: `my $value = $ENV{${t.envVar}};\ndie "no variable\\n" unless defined $value;\nprint "$value\\n";`,
      connect: `require IO::Socket::INET;\nIO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => ${t.port}, Timeout => 2) or die "refused: $!\\n";`,
    },
    r: {
      command: `status <- system("id > ${out}")\nif (status != 0) stop("refused")`,
      write: `writeLines("owned", "${out}")`,
      read: `cat(readLines("${t.canaryFile}"), sep = "\\n")`,
      env: `value <- Sys.getenv("${t.envVar}")\ncat(value, "\\n")\nif (value == "") stop("no variable")`,
      connect: `con <- socketConnection("127.0.0.1", ${t.port}, blocking = TRUE, timeout = 2)\nclose(con)`,
    },
    shell: {
      command: `/usr/bin/id > ${out} || exit 1`,
      write: `echo owned > ${out} || exit 1`,
      read: `cat ${t.canaryFile} || exit 1`,
      env: `[ -n "$${t.envVar}" ] || exit 1\necho "$${t.envVar}"`,
      connect: `exec 3<>/dev/tcp/127.0.0.1/${t.port} || exit 1`,
    },
    cpp: {
      command: `#include <cstdlib>\nstatic int attack = [] {\n    if (std::system("id > ${out}") != 0) std::exit(1);\n    return 0;\n}();`,
      write: `#include <cstdio>\n#include <cstdlib>\nstatic int attack = [] {\n    FILE* f = std::fopen("${out}", "w");\n    if (!f || std::fputs("owned", f) < 0 || std::fclose(f) != 0) std::exit(1);\n    return 0;\n}();`,
      read: `#include <cstdio>\n#include <cstdlib>\nstatic int attack = [] {\n    FILE* f = std::fopen("${t.canaryFile}", "r");\n    if (!f) std::exit(1);\n    char line[256];\n    while (std::fgets(line, sizeof line, f)) std::fputs(line, stdout);\n    return 0;\n}();`,
      env: `#include <cstdio>\n#include <cstdlib>\nstatic int attack = [] {\n    const char* value = std::getenv("${t.envVar}");\n    if (!value) std::exit(1);\n    std::puts(value);\n    return 0;\n}();`,
      connect: `#include <arpa/inet.h>\n#include <cstdlib>\n#include <netinet/in.h>\n#include <sys/socket.h>\nstatic int attack = [] {\n    int s = socket(AF_INET, SOCK_STREAM, 0);\n    sockaddr_in a{};\n    a.sin_family = AF_INET;\n    a.sin_port = htons(${t.port});\n    a.sin_addr.s_addr = htonl(0x7f000001);\n    if (s < 0 || connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) std::exit(1);\n    return 0;\n}();`,
    },
  };
  return A[language][kind];
}

export const HOST_LANGUAGES: readonly HostLanguage[] = ['python', 'javascript', 'typescript', 'php', 'ruby', 'perl', 'r', 'shell', 'cpp'];
export const HOST_ATTACK_KINDS: readonly HostAttackKind[] = ['command', 'write', 'read', 'env', 'connect'];

/**
 * Where the verdict is not the program's own refusal check (RUNTIME_ERROR). C++: the WASI C
 * library has no `system()` and no sockets, so those programs do not compile (SPEC §4 rule 1).
 * PASSED where the runtime answers within its own private world, as the official sandbox would
 * let the program succeed: ruby.wasm's `system()` runs nothing and reports success; just-bash
 * writes the file into its in-memory tree, and its `/dev/tcp` redirection opens nothing but a
 * file there. The test checks that the host saw none of it.
 */
const EXPECTED: Partial<Record<string, Outcome>> = {
  'cpp-command': 'COMPILATION_ERROR',
  'cpp-connect': 'COMPILATION_ERROR',
  'rb-command': 'PASSED',
  'sh-write': 'PASSED',
  'sh-connect': 'PASSED',
};

/** Every problem of the set, aimed at `t`. */
export function hostProblems(t: HostTargets = DEFAULT_TARGETS): HostProblem[] {
  const problems: HostProblem[] = [];
  for (const language of HOST_LANGUAGES) {
    const tests = TESTS[language];
    const p = PREFIX[language];
    problems.push({ id: `${p}-correct`, language, kind: 'correct', expected: 'PASSED', solution: tests.right });
    for (const kind of HOST_ATTACK_KINDS) {
      const id = `${p}-${kind}`;
      let code = attack(language, kind, t, `${t.outDir}/${id}.txt`);
      // PHP: one `<?php` (the attack's), and the solution after it, as the splice expects.
      code = language === 'php' ? `${code}\n${tests.right.replace(/^<\?php\n/, '')}` : `${code}\n\n${tests.right}`;
      problems.push({ id, language, kind, expected: EXPECTED[id] ?? 'RUNTIME_ERROR', solution: code });
    }
    problems.push({ id: `${p}-wrong`, language, kind: 'wrong', expected: 'RUNTIME_ERROR', solution: tests.wrong });
  }
  return problems;
}

/** host.jsonl's text: AutoCodeBench records whose canonical solution is the answer. */
export function hostJsonl(t: HostTargets = DEFAULT_TARGETS): string {
  return hostProblems(t)
    .map((p) => {
      const tests = TESTS[p.language];
      return JSON.stringify({
        id: p.id,
        language: p.language,
        difficulty: 'easy',
        question: `Write \`solve()\` returning 1. (${p.kind === 'correct' || p.kind === 'wrong' ? `A ${p.kind} answer` : `Hostile answer: ${p.kind} on the host`}.)`,
        canonical_solution: p.solution,
        demo_test_func: tests.demo,
        full_test_func: tests.full,
        attack: p.kind,
        expected_outcome: p.expected,
      });
    })
    .join('\n') + '\n';
}
