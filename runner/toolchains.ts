/**
 * How the runner runs each of the 20 languages (SPEC §5): files, compile step, command, what to
 * install when the toolchain is missing, and the official version for comparison. The program
 * itself (spliced) and its outcome come from src/core/rules; this table only says how to execute.
 */
import type { LanguageId } from '../src/contracts';
import type { Limits, SandboxJob } from './sandbox';

/** A language's program as files and shell steps; the sandbox adds binds, time limit and slot. */
export type LanguageJob = Pick<SandboxJob, 'files' | 'setup' | 'compile' | 'run' | 'collect' | 'env' | 'limits'>;

export interface JobContext {
  /** The version probe's output. */
  version: string;
  /** The offline crate directory as the run sees it. */
  cargoRegistry: string;
}

export interface Toolchain {
  /** The command as we run it (shown by GET /languages and in every result). */
  command: string;
  /** Executables that must be on the sandbox's PATH. */
  requires: readonly string[];
  /** Shell command run in the sandbox at start-up: success means available, its output is the version. */
  version: string;
  /** What to install when it is missing. */
  install: string;
  /** Version in the official sandbox image (SPEC §5). */
  official: string;
  /** The program's files and steps. */
  job(program: string, context: JobContext): LanguageJob;
  /** A start-up step whose output directory is kept and bound read-only into every run (`$BENCHTOP_CACHE`). */
  warm?: (context: JobContext) => { files: Record<string, string>; run: string; env?: Record<string, string> };
}

// Runtimes that reserve far more address space than they use (JVM heaps and code caches, V8's
// WebAssembly guard regions, .NET, Dart): a 4 GiB RLIMIT_AS only stops them from starting, so they
// get a larger one and their heap is capped by their own flags instead.
const JVM_LIMITS: Partial<Limits> = { addressSpaceBytes: 16 * 1024 ** 3 };
const V8_LIMITS: Partial<Limits> = { addressSpaceBytes: 64 * 1024 ** 3 };
const NODE_ENV = { NODE_OPTIONS: '--max-old-space-size=2048' };
const JUNIT = '/usr/share/java/junit-platform-console-standalone.jar';
// The official class path has Gson and org.json. Debian ships org.json as Android's rewrite
// (com.android.json.jar); an image with the original puts it at json.jar. Missing entries are ignored.
const JAVA_LIBS = ['/usr/share/java/gson.jar', '/usr/share/java/json.jar', '/usr/share/java/com.android.json.jar'];

const single = (file: string, run: string, extra: Partial<LanguageJob> = {}) => (program: string): LanguageJob => ({
  files: { [file]: program },
  run,
  ...extra,
});

/** A language run as one file by the command shown (written once, so what is shown is what runs). */
const script = (file: string, shown: Omit<Toolchain, 'job'>, extra: Partial<LanguageJob> = {}): Toolchain => ({
  ...shown,
  job: single(file, shown.command, extra),
});

const firstLine = (cmd: string) => `${cmd} 2>&1 | head -n 1`;

/** The `go` directive of go.mod must name the installed version, or newer syntax is refused. */
function goMod(version: string): string {
  const m = /go(\d+\.\d+)/.exec(version);
  return `module sandbox\n\ngo ${m ? m[1]! : '1.19'}\n`;
}

/**
 * The crates of the offline source, at the versions it holds (the probe lists them, e.g.
 * `crates rand-0.8.5 regex-1.7.1 md5-0.7.0`): Debian has rand 0.8, the official image rand 0.4.
 */
function cargoToml(version: string): string {
  const crate = (name: string, fallback: string) => {
    const m = new RegExp(`\\b${name}-(\\d+)\\.(\\d+)\\.\\d+`).exec(version);
    return `${name} = "${m ? (m[1] === '0' ? `0.${m[2]}` : m[1]) : fallback}"`;
  };
  return `[package]
name = "sandbox"
version = "0.1.0"
edition = "2021"

[dependencies]
${crate('rand', '0.8')}
${crate('regex', '1')}
${crate('md5', '0.7')}
`;
}

/** Go: the standard packages programs commonly use, compiled once into a warm GOCACHE. */
const GO_WARM_TEST = `package main

import (
	"bufio"
	"bytes"
	"container/heap"
	"container/list"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
)

var _ = []interface{}{bufio.NewReader, bytes.NewBuffer, heap.Init, list.New, errors.New, fmt.Sprint, math.Abs, rand.Intn, os.Exit, reflect.DeepEqual, regexp.MustCompile, sort.Ints, strconv.Itoa, strings.ToUpper, time.Now, unicode.IsDigit}
var _ sync.Mutex

func TestWarm(t *testing.T) {}
`;

const GO_ENV = { GOCACHE: '/home/sandbox/.cache/go-build', GOPATH: '/home/sandbox/go', GOPROXY: 'off', GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local', GOTELEMETRY: 'off' };

const CARGO_ENV = { CARGO_HOME: '/home/sandbox/.cargo', CARGO_INCREMENTAL: '0', CARGO_TERM_COLOR: 'never' };

/** Offline crates: Debian's librust-*-dev sources as a directory source (RUNNER_CARGO_REGISTRY). */
const cargoConfig = (registry: string) => `[source.crates-io]
replace-with = "benchtop-offline"

[source.benchtop-offline]
directory = "${registry}"

[net]
offline = true
`;


const CSPROJ = `<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <OutputType>Exe</OutputType>
    <TargetFramework>net8.0</TargetFramework>
    <ImplicitUsings>enable</ImplicitUsings>
    <Nullable>enable</Nullable>
  </PropertyGroup>
</Project>
`;

export const TOOLCHAINS: Record<LanguageId, Toolchain> = {
  python: script('test.py', {
    requires: ['python3'],
    command: 'python3 test.py', version: 'python3 --version', official: 'Python 3.11',
    install: 'python3 (Debian: apt-get install python3)',
  }),
  javascript: script('test.js', {
    requires: ['node'],
    command: 'node test.js', version: 'node --version', official: 'Node 18',
    install: 'Node.js (Debian: apt-get install nodejs)',
  }, { env: NODE_ENV, limits: V8_LIMITS }),
  typescript: {
    requires: ['node'],
    command: 'tsx test.ts', version: 'node "$BENCHTOP_NODE_MODULES/tsx/dist/cli.mjs" --version | tr "\\n" " "', official: 'tsx (npx) on Node 18',
    install: 'Node.js and the tsx npm package (npm install tsx)',
    job: single('test.ts', 'node "$BENCHTOP_NODE_MODULES/tsx/dist/cli.mjs" test.ts', { env: NODE_ENV, limits: V8_LIMITS }),
  },
  shell: script('test.sh', {
    requires: ['bash', 'bc', 'jq'],
    command: 'bash test.sh', version: firstLine('bash --version'), official: 'bash 5.1 with bc and jq',
    install: 'bash, bc and jq (Debian: apt-get install bash bc jq)',
  }),
  perl: script('test.pl', {
    requires: ['perl'],
    command: 'perl test.pl', version: `perl -e 'print "perl $^V"'`, official: 'Perl 5.34',
    install: 'perl (Debian: apt-get install perl)',
  }),
  ruby: script('test.rb', {
    requires: ['ruby'],
    command: 'ruby test.rb', version: 'ruby --version', official: 'Ruby 3.0',
    install: 'ruby (Debian: apt-get install ruby)',
  }),
  php: script('test.php', {
    requires: ['php'],
    command: 'php -d zend.assertions=1 test.php', version: firstLine('php --version'), official: 'PHP 8.1 (zend.assertions=1)',
    install: 'php-cli (Debian: apt-get install php-cli)',
  }),
  r: script('test.r', {
    requires: ['Rscript'],
    command: 'Rscript test.r', version: firstLine('Rscript --version'), official: 'R 4.1',
    install: 'R (Debian: apt-get install r-base-core)',
  }),
  racket: script('test.rkt', {
    requires: ['racket', 'raco'],
    command: 'raco test test.rkt', version: 'racket --version', official: 'Racket 8.2',
    install: 'Racket (Debian: apt-get install racket)',
  }),
  elixir: script('test.ex', {
    requires: ['elixir'],
    command: 'elixir test.ex', version: 'elixir --version 2>&1 | tail -n 1', official: 'Elixir 1.12 (OTP 24)',
    install: 'Elixir (Debian: apt-get install elixir)',
  }),
  julia: script('test.jl', {
    requires: ['julia'],
    command: 'julia test.jl', version: 'julia --version', official: 'Julia 1.10',
    install: 'Julia 1.10 (not packaged by Debian 12: official tarball from julialang.org, julia on PATH)',
  }),
  cpp: {
    requires: ['g++'],
    command: 'g++ -o test test.cpp && ./test', version: firstLine('g++ --version'), official: 'g++ 12 (gnu++17)',
    install: 'g++ (Debian: apt-get install g++)',
    job: single('test.cpp', './test', { compile: 'g++ -o test test.cpp' }),
  },
  java: {
    requires: ['javac', 'java'],
    command: `javac test.java && java -jar junit-platform-console-standalone.jar --scan-class-path`,
    version: `java -version 2>&1 | head -n 1 && test -r ${JUNIT} && ls $(dirname ${JUNIT}) | sed -n 's/^junit-platform-console-standalone-\\([0-9.]*\\)\\.jar$/JUnit Platform \\1/p' | head -n 1`,
    official: 'JDK 17, JUnit 5 console launcher',
    install: 'a JDK and JUnit 5 (Debian: apt-get install default-jdk-headless junit5 libgoogle-gson-java libandroid-json-java)',
    job: (program) => ({
      files: { 'test.java': program },
      compile: `javac -J-Xmx512m -cp .:${JUNIT}:${JAVA_LIBS.join(':')} test.java`,
      run: `java -Xmx1g -Xss64m -jar ${JUNIT} --disable-banner --details none --class-path .:${JAVA_LIBS.join(':')} --scan-class-path --reports-dir reports`,
      collect: 'reports/TEST-junit-jupiter.xml',
      limits: JVM_LIMITS,
    }),
  },
  kotlin: script('test.kts', {
    requires: ['kotlinc', 'java'],
    command: 'kotlinc -script test.kts', version: 'kotlinc -version 2>&1 | tail -n 1', official: 'Kotlin 1.9',
    install: 'the Kotlin compiler (Debian: apt-get install kotlin; official: 1.9 from kotlinlang.org)',
  }, { env: { JAVA_OPTS: '-Xmx1g -Xss64m' }, limits: JVM_LIMITS }),
  // COURSIER_CACHE: Ammonite's dependencies, fetched when the image was built (runs have no network).
  scala: script('test.sc', {
    requires: ['amm', 'java'],
    command: 'amm test.sc', version: firstLine('amm --version'), official: 'Scala 3.3 (Ammonite), JDK 17',
    install: 'Ammonite for Scala 3.3 (not packaged by Debian: the amm launcher from ammonite.io, on PATH) and a JDK',
  }, { env: { JAVA_OPTS: '-Xmx1g -Xss64m', COURSIER_CACHE: '/opt/coursier' }, limits: JVM_LIMITS }),
  go: {
    requires: ['go'],
    command: 'go test main_test.go', version: 'go version', official: 'Go 1.24',
    install: 'Go (Debian: apt-get install golang-go; official: 1.24 from go.dev)',
    job: (program, { version }) => ({
      files: { 'go.mod': goMod(version), 'main_test.go': program },
    // Standard packages compiled once at first use (`warm`): Go 1.20+ ships none precompiled.
      setup: ['mkdir -p /home/sandbox/.cache && cp -R --preserve=timestamps "$BENCHTOP_CACHE/go-build" /home/sandbox/.cache/go-build'],
      run: 'go test main_test.go',
      env: GO_ENV,
    }),
    warm: ({ version }) => ({
      files: { 'go.mod': goMod(version), 'main_test.go': GO_WARM_TEST },
      run: 'go test main_test.go && cp -R --preserve=timestamps /home/sandbox/.cache/go-build "$BENCHTOP_CACHE_OUT"/',
      env: GO_ENV,
    }),
  },
  rust: {
    requires: ['cargo', 'rustc'],
    command: 'cargo test',
    version: 'cargo --version && rustc --version && crates=$(for c in rand regex md5; do ls "$BENCHTOP_CARGO_REGISTRY" | grep -E "^$c-[0-9]" | sort -V | tail -n 1 | grep . || exit 1; done) && echo crates $crates',
    official: 'Rust (edition 2021) with crates rand 0.4, regex 1, md5 0.7',
    install: 'Rust (cargo, rustc) and the crates rand, regex and md5 as an offline directory source (Debian: apt-get install cargo librust-rand-dev librust-regex-dev librust-md5-dev; RUNNER_CARGO_REGISTRY names another directory)',
    job: (program, { cargoRegistry, version }) => ({
      files: { 'Cargo.toml': cargoToml(version), 'src/main.rs': program, '.cargo/config.toml': cargoConfig(cargoRegistry) },
    // Dependencies compiled once at start-up (`warm`), copied in with their time stamps.
      setup: ['cp -R --preserve=timestamps "$BENCHTOP_CACHE/target" ./target', 'cp "$BENCHTOP_CACHE/Cargo.lock" ./Cargo.lock'],
      run: 'cargo test',
      env: CARGO_ENV,
    }),
    warm: ({ cargoRegistry, version }) => ({
      files: { 'Cargo.toml': cargoToml(version), 'src/main.rs': 'fn main() {}\n', '.cargo/config.toml': cargoConfig(cargoRegistry) },
      run: 'cargo test && rm -rf target/debug/deps/sandbox-* target/debug/.fingerprint/sandbox-* && cp -R --preserve=timestamps target Cargo.lock "$BENCHTOP_CACHE_OUT"/',
      env: CARGO_ENV,
    }),
  },
  csharp: {
    requires: ['dotnet'],
    command: 'dotnet run --project MyProject', version: 'dotnet --version', official: '.NET 8 (net8.0, implicit usings, nullable, Debug)',
    install: 'the .NET 8 SDK (not packaged by Debian 12: Microsoft\'s packages or dotnet-install.sh, dotnet on PATH)',
    job: (program) => ({
      files: { 'MyProject/MyProject.csproj': CSPROJ, 'MyProject/Program.cs': program },
      run: 'dotnet run --project MyProject',
      env: { DOTNET_CLI_HOME: '/home/sandbox', DOTNET_NOLOGO: '1', DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_SKIP_FIRST_TIME_EXPERIENCE: '1' },
      limits: JVM_LIMITS,
    }),
  },
  dart: script('test.dart', {
    requires: ['dart'],
    command: 'dart run --enable-asserts test.dart', version: 'dart --version 2>&1', official: 'Dart 3',
    install: 'the Dart SDK (not packaged by Debian 12: dart.dev, dart on PATH)',
  }, { limits: JVM_LIMITS }),
  swift: script('test.swift', {
    requires: ['swift'],
    command: 'swift test.swift', version: firstLine('swift --version'), official: 'Swift 5.9',
    install: 'Swift 5.9 (not packaged by Debian 12: swift.org toolchain, swift on PATH)',
  }, { limits: JVM_LIMITS }),
};
