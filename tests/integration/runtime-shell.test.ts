/**
 * The Shell runtime (just-bash, bash re-implemented in TypeScript, plus benchtop's bc), loaded
 * directly as the Node worker does, checked against the real `bash test.sh` (and the real `bc`)
 * of this machine: exit codes, output, isolation, time limits, and the verdicts of the demo set's
 * Shell problems (canonical solutions and recorded answers).
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeExecutor } from '../../runtimes/host/node';
import { runBc } from '../../runtimes/shell/bc';
import { createShellRuntime } from '../../runtimes/shell/just-bash';
import type { ExecutionReport, Executor, LanguageRuntime } from '../../src/contracts';
import { evaluateAll } from '../../src/core/engine';
import { parseDataset } from '../../src/core/records';
import { judgeRun } from '../../src/core/rules';
import { canonicalModel } from '../../src/models/canonical';
import { parseAnswers, replayAnswersModel } from '../../src/models/replay';

let shell: LanguageRuntime;
beforeAll(async () => {
  shell = await createShellRuntime({ files: {} });
});
const run = (program: string, timeoutMs = 10_000) => shell.run(program, timeoutMs);

const has = (tool: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const HAVE = { bash: has('bash'), bc: has('bc'), jq: has('jq') };

/** The official way: `bash test.sh` in a fresh directory, stdin empty, killed at the time limit. */
function runRealBash(program: string, timeoutMs: number): Promise<ExecutionReport> {
  const dir = mkdtempSync(join(tmpdir(), 'benchtop-bash-'));
  writeFileSync(join(dir, 'test.sh'), program);
  return new Promise((resolve) => {
    const child = execFile('bash', ['test.sh'], { cwd: dir, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1 << 24, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' } }, (error, stdout, stderr) => {
      rmSync(dir, { recursive: true, force: true });
      const timedOut = !!error && (error as { killed?: boolean }).killed === true;
      const code = error ? ((error as { code?: unknown }).code as number | undefined) : 0;
      resolve({ exitCode: timedOut ? null : typeof code === 'number' ? code : 1, stdout, stderr, timedOut });
    });
    child.stdin?.end();
  });
}

/**
 * Everyday shell idioms (strings, arrays, arithmetic, loops, functions, coreutils, awk, sed, jq,
 * bc, sort/uniq, traps): each runs in just-bash and in the real bash, stdout and exit code
 * compared. KNOWN lists the ones where just-bash still differs (docs/fidelity.md); any other
 * difference fails the test.
 */
const PROBES: readonly string[] = [
  "s=\"Hello World\"; echo \"${s,,} ${s^^} ${s:0:5} ${s: -5} ${#s} ${s/o/0} ${s//o/0} ${s#H*o} ${s##*o} ${s%o*} ${s%%o*}\"",
  "a=(3 1 2); a+=(5); echo \"${a[@]} ${#a[@]} ${a[1]} ${!a[@]} ${a[@]:1:2}\"; unset 'a[1]'; echo \"${a[@]} ${#a[@]}\"",
  "declare -A m; m[x]=1; m[y]=2; m[x]=$(( m[x] + 5 )); for k in $(echo \"${!m[@]}\" | tr ' ' '\\n' | sort); do echo \"$k=${m[$k]}\"; done; echo ${#m[@]}",
  "printf '%s\\n' a b c | while IFS= read -r line; do echo \"[$line]\"; done",
  "count=0; printf '1\\n2\\n3\\n' | while read -r n; do count=$((count+n)); done; echo \"count=$count\"",
  "count=0; while read -r n; do count=$((count+n)); done < <(printf '1\\n2\\n3\\n'); echo \"count=$count\"",
  "printf '%5.2f|%-6s|%06d|%x|%o|%e|%c|%%\\n' 3.14159 ab 42 255 8 12345.678 hello",
  "printf '%s-%s\\n' a b c d e",
  "printf -v out '%03d' 7; echo \"$out\"",
  "echo -e 'a\\tb\\nc'; echo -n 'no newline'; echo; echo 'a\\tb'",
  "x=5; y=3; echo $(( x ** y )) $(( x / y )) $(( x % y )) $(( -x / y )) $(( x << 2 )) $(( x & y )) $(( x > y ? x : y ))",
  "let \"z = 5 * 4\"; echo $z; expr 7 + 3; expr 10 / 3; expr length \"hello\"",
  "[[ \"abc123\" =~ ^([a-z]+)([0-9]+)$ ]] && echo \"${BASH_REMATCH[0]} ${BASH_REMATCH[1]} ${BASH_REMATCH[2]}\"",
  "case \"banana\" in a*) echo A;; b*|c*) echo B;; *) echo other;; esac",
  "for i in {1..5}; do echo -n \"$i \"; done; echo; for i in {a..e}; do echo -n $i; done; echo; echo {1..10..3}",
  "for ((i=0; i<3; i++)); do echo \"i=$i\"; done",
  "seq 5 | paste -sd+ | bc; seq 2 2 10; seq -s, 1 5",
  "echo \"one two three\" | awk '{print NF, $2, length($0)}'; echo \"a,b,c\" | awk -F, '{for(i=NF;i>0;i--) printf \"%s \", $i; print \"\"}'",
  "echo \"hello world\" | sed 's/o/0/g; s/^h/H/'; echo \"abc\" | sed -E 's/(a)(b)/\\2\\1/'; printf 'l1\\nl2\\nl3\\n' | sed -n '2p'",
  "printf 'apple\\nbanana\\ncherry\\n' | grep -c an; printf 'apple\\nbanana\\n' | grep -o 'an' | wc -l; echo \"x1y22z333\" | grep -oE '[0-9]+'",
  "printf 'b\\na\\nc\\na\\n' | sort | uniq -c | sort -rn; printf 'b\\na\\nc\\na\\n' | sort -u",
  "printf '10\\n9\\n100\\n' | sort -n; printf '10\\n9\\n100\\n' | sort; printf 'b 2\\na 10\\nc 1\\n' | sort -k2 -n; printf 'x:3\\ny:1\\n' | sort -t: -k2",
  "echo \"a b c\" | cut -d' ' -f2; echo \"abcdef\" | cut -c2-4; echo \"hello\" | rev; echo \"HeLLo\" | tr 'a-z' 'A-Z'; echo \"aabbcc\" | tr -d 'b'; echo \"aaabbb\" | tr -s 'a'",
  "printf 'l1\\nl2\\nl3\\nl4\\n' | head -2; printf 'l1\\nl2\\nl3\\nl4\\n' | tail -n 2; printf 'a b\\nc d e\\n' | wc -w; printf 'abc' | wc -c",
  "f() { local -n ref=$1; ref=changed; }; v=orig; f v; echo $v",
  "name=greeting; greeting=hi; echo \"${!name}\"",
  "x=; echo \"${x:-default} ${x:=assigned} $x ${y:+alt} ${unset_var-none}\"",
  "set -- a b c; echo \"$# $1 $@\"; shift; echo \"$# $*\"",
  "str=\"a:b:c\"; IFS=: read -r p1 p2 p3 <<< \"$str\"; echo \"$p1 $p2 $p3\"; IFS=',' read -ra arr <<< \"x,y,z\"; echo \"${arr[2]} ${#arr[@]}\"",
  "mapfile -t lines < <(printf 'one\\ntwo\\n'); echo \"${#lines[@]} ${lines[1]}\"",
  "echo $(( 16#ff )) $(( 8#17 )) $(( 2#1010 )) $(( 10#010 ))",
  "n=010; (( n2 = 10#$n + 1 )); echo $n2; v=9; (( 10#$v > 5 )) && echo big",
  "echo \"$(echo \"  spaced  \")|\"; r=$(printf 'a\\n\\n\\n'); echo \"[$r]\"",
  "if [ -z \"\" ] && [ -n \"x\" ] && [ 5 -gt 3 ] && [ \"a\" != \"b\" ]; then echo ok; fi; [[ 5 -lt 10 && \"abc\" < \"abd\" ]] && echo ok2",
  "tmp=$(mktemp); echo data > \"$tmp\"; cat \"$tmp\"; [ -f \"$tmp\" ] && echo exists; rm -f \"$tmp\"; [ -e \"$tmp\" ] || echo gone",
  "echo '{\"name\":\"x\",\"items\":[1,2,3]}' | jq -r '.name, (.items | length), (.items | add)'",
  "echo '[{\"a\":1},{\"a\":2}]' | jq -c 'map(.a * 2)'; echo '{\"b\":2,\"a\":1}' | jq -S .",
  "x=\"3.7\"; echo \"$x > 3\" | bc; echo \"scale=3; $x * 2\" | bc; printf \"%.1f\\n\" \"$(echo \"$x / 3\" | bc -l)\"",
  "arr=(5 3 8 1); IFS=$'\\n' sorted=($(sort -n <<<\"${arr[*]}\")); unset IFS; echo \"${sorted[*]}\"",
  "arr=(5 3 8 1); max=${arr[0]}; for v in \"${arr[@]}\"; do (( v > max )) && max=$v; done; echo $max",
  "fib() { local n=$1; if (( n < 2 )); then echo $n; else echo $(( $(fib $((n-1))) + $(fib $((n-2))) )); fi; }; fib 10",
  "fact() { if [ \"$1\" -le 1 ]; then echo 1; else local p=$(fact $(( $1 - 1 ))); echo $(( $1 * p )); fi; }; fact 10",
  "is_prime() { local n=$1 i; (( n < 2 )) && return 1; for (( i=2; i*i<=n; i++ )); do (( n % i == 0 )) && return 1; done; return 0; }; for n in 1 2 9 13; do is_prime $n && echo \"$n prime\" || echo \"$n not\"; done",
  "s=\"racecar\"; [ \"$s\" = \"$(echo \"$s\" | rev)\" ] && echo palindrome",
  "echo \"The quick brown fox\" | tr ' ' '\\n' | awk '{ print length, $0 }' | sort -rn | head -1",
  "words=\"b a c\"; echo $words | tr ' ' '\\n' | sort | tr '\\n' ' '; echo",
  "printf '%s\\n' \"${PWD##*/}\" >/dev/null; echo \"done\"",
  "x=abc; echo \"${x^}\" \"${x~~}\" 2>/dev/null; echo \"${x@Q}\" 2>/dev/null",
  "echo $((RANDOM >= 0)); echo ${#BASH_VERSION} >/dev/null; echo ok",
  "trap 'echo trapped' EXIT; echo body",
  "f() { echo \"in f\"; return 3; }; f; echo \"status $?\"; f || echo \"failed $?\"",
  "out=$(false); echo \"rc=$?\"; (exit 7); echo \"sub=$?\"",
  "echo \"a\" > x.txt; echo \"b\" >> x.txt; cat x.txt | wc -l; while read -r l; do echo \"<$l>\"; done < x.txt",
  "cat <<EOF\nx=$((1+1)) $(echo cmd)\nEOF",
  "cat <<'EOF'\nraw $HOME $(x)\nEOF",
  "echo \"${arr[@]:-empty}\"; declare -a e=(); echo \"${#e[@]}\"; e+=(\"a b\"); echo \"${e[0]}\"",
  "printf '%d\\n' \"'A\"; printf '%s\\n' \"$(printf '\\x41')\"; echo $'\\x42'",
  "str=\"hello\"; for (( i=${#str}-1; i>=0; i-- )); do printf '%s' \"${str:i:1}\"; done; echo",
  "num=12345; sum=0; while (( num > 0 )); do sum=$(( sum + num % 10 )); num=$(( num / 10 )); done; echo $sum",
  "echo \"$(( (3 + 4) * 2 ))\" \"$(( 7 / -2 ))\" \"$(( -7 % 3 ))\" \"$(( 2**62 ))\" \"$(( 2**63 ))\"",
  "d=$(date +%Y); [ ${#d} -eq 4 ] && echo year-ok",
  "printf '%s\\n' \"a b\" \"c\" | xargs -n1 echo | wc -l; echo \"1 2 3\" | xargs -n 2",
  "echo \"x\" | tee t.txt >/dev/null; cat t.txt",
  "[ 01 -eq 1 ] && echo numeq; [ \"01\" = \"1\" ] || echo strne; [[ 1.5 > 1.10 ]] && echo strcmp",
  "echo {a,b}{1,2}; echo file{1..3}.txt",
  "i=0; until (( i >= 3 )); do ((i++)); done; echo $i; (( i++ )); echo $i; ((i+=5)); echo $i",
  "echo \"$(( 0x1f ))\" \"$(( 1e3 ))\" 2>&1 | head -1",
  "val=\"  trim me  \"; trimmed=\"${val#\"${val%%[![:space:]]*}\"}\"; trimmed=\"${trimmed%\"${trimmed##*[![:space:]]}\"}\"; echo \"[$trimmed]\"",
  "printf '%s\\n' one two three | awk 'NR==2'; printf '3\\n1\\n2\\n' | awk '{s+=$1} END {print s, s/NR}'",
  "echo \"a=1;b=2\" | awk -F'[=;]' '{print $2 + $4}'; awk 'BEGIN { printf \"%.3f\\n\", 22/7; print int(7.9), 2^10, substr(\"hello\", 2, 3), toupper(\"x\"), index(\"abc\",\"c\") }'",
  "echo \"CamelCaseString\" | sed -E 's/([A-Z])/_\\1/g; s/^_//' | tr 'A-Z' 'a-z'",
  "echo \"1,2,3\" | tr ',' '\\n' | paste -sd' '; printf 'a\\tb\\n' | expand -t 4 | cat -A 2>/dev/null | head -1",
  "declare -i n=5; n+=3; echo $n; declare -r ro=1; echo $ro; declare -u up=abc; echo $up 2>/dev/null",
  "arr=(c a b); sorted=($(printf '%s\\n' \"${arr[@]}\" | sort)); echo \"${sorted[@]}\"; echo \"${arr[*]}\" | wc -w",
  "printf \"%-10s|%5s|\\n\" \"left\" \"right\"; printf \"%'d\\n\" 1234567 2>/dev/null || true",
  "echo $(( $(echo 3) + $(echo 4) )); x=$(( $(printf '%d' 5) * 2 )); echo $x",
  "g() { echo $(( $1 * 2 )); }; h() { echo $(( $(g $1) + 1 )); }; h 5",
  "sq() { echo $(( $1 * $1 )); }; total=0; for i in 1 2 3; do total=$(( total + $(sq $i) )); done; echo $total",
  "reverse_words() { local out=\"\"; for w in $1; do out=\"$w $out\"; done; echo \"${out% }\"; }; reverse_words \"one two three\"",
  "to_binary() { local n=$1 b=\"\"; while (( n > 0 )); do b=\"$(( n % 2 ))$b\"; n=$(( n / 2 )); done; echo \"${b:-0}\"; }; to_binary 10; to_binary 0",
  "gcd() { local a=$1 b=$2; while (( b )); do local t=$b; b=$(( a % b )); a=$t; done; echo $a; }; gcd 48 18",
  "count_chars() { echo -n \"$1\" | grep -o \"$2\" | wc -l; }; count_chars \"banana\" a",
  "join_by() { local IFS=\"$1\"; shift; echo \"$*\"; }; join_by , a b c",
  "upper() { echo \"$1\" | tr '[:lower:]' '[:upper:]'; }; upper \"mixed Case\"",
  "printf '%s\\n' 3 1 2 | sort -n | tail -1; printf '%s\\n' 3 1 2 | sort -nr | head -1",
  "printf 'k1 v1\\nk2 v2\\n' | while read -r k v; do echo \"$v=$k\"; done",
  "str=\"a,b,,c\"; IFS=',' read -ra parts <<< \"$str\"; echo \"${#parts[@]}\"; for p in \"${parts[@]}\"; do echo \"[$p]\"; done",
  "s=\"hello world\"; echo \"${s^}\"; words=($s); echo \"${words[1]^^}\"",
  "declare -A cnt; for w in a b a c a b; do ((cnt[$w]++)); done; for k in a b c; do echo \"$k ${cnt[$k]}\"; done",
  "matrix=(); for i in 0 1; do for j in 0 1; do matrix[$((i*2+j))]=$((i+j)); done; done; echo \"${matrix[@]}\"",
  "n=5; result=1; for ((i=2; i<=n; i++)); do result=$((result*i)); done; echo $result",
  "echo \"3 + 4 * 2\" | bc; echo \"scale=2; 22/7\" | bc; echo \"10 % 3\" | bc; echo \"2^10\" | bc",
  "avg=$(echo \"scale=2; (85 + 90 + 78) / 3\" | bc); echo \"Average: $avg\"",
  "if (( $(echo \"3.5 > 2.1\" | bc -l) )); then echo greater; fi",
  "json='{\"users\":[{\"name\":\"a\",\"age\":30},{\"name\":\"b\",\"age\":25}]}'; echo \"$json\" | jq -r '.users[] | select(.age > 26) | .name'",
  "echo '{\"a\":{\"b\":[10,20]}}' | jq '.a.b[1]'; echo '[3,1,2]' | jq 'sort | .[0]'; echo '{\"k\":\"v\"}' | jq -r 'keys[]'",
  "printf 'name,score\\nann,90\\nbob,85\\n' | tail -n +2 | sort -t, -k2 -n | head -1 | cut -d, -f1",
  "printf 'x 1\\ny 3\\nz 2\\n' | sort -k2,2nr | awk '{print $1}' | tr '\\n' ' '; echo",
  "echo \"aAbBcC\" | sed 's/[A-Z]//g'; echo \"path/to/file.txt\" | sed 's|.*/||'; echo \"2023-01-15\" | sed -E 's/([0-9]+)-([0-9]+)-([0-9]+)/\\3\\/\\2\\/\\1/'",
  "f=/tmp/dir/sub/file.tar.gz; echo \"$(basename \"$f\") $(dirname \"$f\") ${f##*.} ${f%.*}\"",
  "echo \"line1",
  "line2",
  "line3\" | sed -n '$p'; printf 'a\\nb\\n' | sed '1i header'; printf 'x\\n' | sed 'a tail'",
  "printf 'foo bar\\nbaz qux\\n' | awk '{ print $NF }'; printf '1 2\\n3 4\\n' | awk '{ sum += $1 * $2 } END { print sum }'",
  "awk 'BEGIN { for (i = 1; i <= 3; i++) printf \"%d%s\", i, (i < 3 ? \",\" : \"\\n\") }'",
  "printf '5\\n3\\n9\\n' | awk 'NR == 1 || $1 > max { max = $1 } END { print max }'",
  "echo \"a-b_c d\" | tr -c '[:alnum:]\\n' '.'; echo \"  lead\" | sed 's/^ *//'",
  "x=\"abc\"; [[ $x == a* ]] && echo glob; [[ $x =~ ^[a-c]+$ ]] && echo re; [[ -n $x && ${#x} -eq 3 ]] && echo len",
  "check() { [[ $1 -ge 0 && $1 -le 100 ]] && echo valid || echo invalid; }; check 50; check 150; check -1",
  "arr=(1 2 3 4 5); echo \"${arr[@]:2}\"; echo \"${arr[-1]}\"; echo \"${#arr[@]}\"; arr=(\"${arr[@]:1}\"); echo \"${arr[*]}\"",
  "i=10; while [ $i -gt 0 ]; do i=$((i - 3)); done; echo $i",
  "res=$( { echo out; echo err >&2; } 2>&1 ); echo \"$res\" | wc -l",
  "echo \"$((5 > 3 && 2 > 1))\" \"$((!0))\" \"$((~5))\" \"$((5 ^ 3))\" \"$((1 << 10))\"",
  "printf '%05.1f|%+d|% d|%-5d|\\n' 3.14159 5 7 42",
  "printf '%s\\n' \"${!BASH*}\" >/dev/null; echo fine",
  "read -r first rest <<< \"alpha beta gamma\"; echo \"$first|$rest\"",
  "printf 'apple 3\\nbanana 5\\n' > data.txt; awk '$2 > 4 { print $1 }' data.txt; grep -c '' data.txt; wc -l < data.txt",
  "echo \"text\" | grep -q \"ex\" && echo found; echo \"text\" | grep -qv \"ex\" || echo notfound",
  "seq 1 10 | awk '$1 % 2 == 0' | paste -sd, ; seq 3 -1 1 | tr '\\n' ' '; echo",
  "echo $(( $(date +%s) > 0 )); printf '%s\\n' \"$(seq 3)\" | wc -l",
  "declare -a stack=(); stack+=(1); stack+=(2); echo \"${stack[-1]}\"; unset 'stack[-1]'; echo \"${#stack[@]}\"",
  "str=\"Hello\"; len=${#str}; rev=\"\"; for ((i=len-1;i>=0;i--)); do rev+=\"${str:$i:1}\"; done; echo \"$rev\"",
  "num=\"00123\"; echo $((10#$num)); echo \"${num#\"${num%%[!0]*}\"}\"",
  "echo \"a b  c\" | awk '{$1=$1; print}'; echo \"x\" | awk '{printf \"%5s|\\n\", $1}'",
  "is_num() { [[ $1 =~ ^-?[0-9]+$ ]]; }; is_num 42 && echo y1; is_num -3 && echo y2; is_num 4a || echo n1",
  "printf 'b\\nB\\na\\nA\\n' | sort; printf 'b\\nB\\na\\nA\\n' | sort -f; printf 'v1.10\\nv1.2\\nv1.9\\n' | sort -V; printf '2K\\n1M\\n512\\n' | sort -h",
  "printf 'b 1\\na 1\\nc 0\\n' | sort -s -k2,2n; printf '3\\n1\\n2\\n' | sort -r; printf 'a:2:x\\nb:10:y\\nc:1:z\\n' | sort -t: -k2,2n | cut -d: -f3 | tr -d '\\n'; echo",
  "printf '  10 x\\n 9 y\\n100 z\\n' | sort -n; printf 'x\\ny\\nx\\n' | sort | uniq -d; printf 'x\\ny\\nx\\n' | sort | uniq -u; printf 'a\\na\\nb\\n' | uniq -c | awk '{print $1}'",
  "t=$(mktemp); echo hi > \"$t\"; cat \"$t\"; d=$(mktemp -d); [ -d \"$d\" ] && echo isdir; rm -rf \"$t\" \"$d\"",
  "cleanup() { echo \"cleanup ran\"; }; trap cleanup EXIT; echo working",
  "trap 'echo \"in trap $?\"' EXIT; false",
  "trap 'rc=$?; echo \"cleanup $rc\"; exit $rc' EXIT; echo \"Test failed\"; exit 1",

];
const KNOWN_DIFFERENCES = new Set<string>([
  // a here-string joins "${arr[*]}" with a space whatever IFS is
  PROBES.find((p) => p.startsWith('arr=(5 3 8 1); IFS='))!,
  // awk: `length` without parentheses prints nothing
  PROBES.find((p) => p.includes("awk '{ print length, $0 }'"))!,
  // ${x~~} and ${x@Q} are not supported (parse error)
  PROBES.find((p) => p.includes('${x~~}'))!,
  // arithmetic in doubles, not 64-bit integers: 2**62 loses digits, 2**63 does not wrap
  PROBES.find((p) => p.includes('$(( 2**63 ))'))!,
  // an arithmetic error ends the whole program in just-bash, only the command in bash
  PROBES.find((p) => p.includes('$(( 1e3 ))'))!,
]);

const executor: Executor = {
  languages: () => ['shell'],
  run: async (request) => ({ ...(await shell.run(request.program, request.timeoutMs)), runtime: shell.description }),
  dispose: async () => {},
};

describe('shell (just-bash)', () => {
  it('runs a program like `bash test.sh`: output, $0, exit 0', async () => {
    const r = await run('#!/bin/bash\ngreet() { echo "hello, $1"; }\ngreet world\necho "to stderr" >&2\necho "$0 $#"\nprintf "%s|%5.2f\\n" x 3.14159');
    expect(r).toMatchObject({ exitCode: 0, stdout: 'hello, world\ntest.sh 0\nx| 3.14\n', stderr: 'to stderr\n', timedOut: false });
    expect(shell.description).toBe("just-bash 3.4.2 (bash 5.1 in TypeScript) with benchtop's bc");
  });

  it('a failing test in the official style: exit 1, "Test failed" on stdout', async () => {
    const r = await run('add() { echo $(( $1 + $2 )); }\ntest() {\n    [ "$(add 1 2)" = "4" ] || { echo "Test failed"; exit 1; }\n    echo "All tests passed"\n}\ntest\n');
    expect(r).toMatchObject({ exitCode: 1, stdout: 'Test failed\n' });
    expect(judgeRun('shell', r)).toBe('RUNTIME_ERROR');
  });

  it('exit codes: exit 3, set -e, a failing command, a missing command (127)', async () => {
    expect((await run('echo a\nexit 3\necho b')).exitCode).toBe(3);
    expect(await run('set -e\necho a\nfalse\necho b')).toMatchObject({ exitCode: 1, stdout: 'a\n' });
    expect((await run('[ 1 -eq 2 ]')).exitCode).toBe(1);
    const missing = await run('no_such_command_here');
    expect(missing.exitCode).toBe(127);
    expect(missing.stderr).toContain('no_such_command_here: command not found');
    expect((await run('f() { return 7; }\nf')).exitCode).toBe(7);
  });

  it('reports a syntax error with a non-zero exit', async () => {
    const r = await run('if [ 1 -eq 1 ]; then\necho yes\n');
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toMatch(/syntax error/);
    expect(judgeRun('shell', r)).toBe('RUNTIME_ERROR');
  });

  // An EXIT trap's text is the program's: it must not reach the status the host appends after it.
  // Expected statuses: GNU bash 5.2.15 here (all 1: the trap calls no exit, or exits with $?).
  it('an EXIT trap cannot forge the status: its own text, and $? the program\'s', async () => {
    for (const program of ["trap 'cat <<EOF' EXIT\nexit 1\n", "trap 'exit $?' EXIT\necho \"Test failed\"\nexit 1\n", "trap 'echo ${__benchtop_exit_trap:-none}' EXIT\nfalse\n"]) {
      const r = await run(program);
      expect(r.exitCode, program).toBe(1);
      expect(judgeRun('shell', r), program).toBe('RUNTIME_ERROR');
    }
    expect((await run("trap 'echo ${__benchtop_exit_trap:-none}' EXIT\nfalse\n")).stdout).toBe('none\n');
  });

  it('writes UTF-8 output', async () => {
    const r = await run('s="漢字"\necho "é $s ${#s}"');
    expect(r.stdout).toBe('é 漢字 2\n');
  });

  it('keeps nothing between programs: variables, functions, files, directory, environment', async () => {
    await run('LEAK=1\nexport EXPORTED=1\nhelper() { echo leaked; }\necho x > left.txt\nmkdir -p /tmp/leftdir\ncd /tmp/leftdir\nalias ll=ls');
    const r = await run('echo "[${LEAK:-}][${EXPORTED:-}]"\ntype helper >/dev/null 2>&1 && echo fn\n[ -e left.txt ] && echo file\n[ -d /tmp/leftdir ] && echo dir\npwd');
    expect(r).toMatchObject({ exitCode: 0, stdout: '[][]\n/tmp/benchtop\n' });
  });

  it('stops a program that never ends at the time limit (the worker survives)', async () => {
    const loop = await run('while true; do :; done', 1500);
    expect(loop.timedOut).toBe(true);
    expect(loop.durationMs).toBeLessThan(4000);
    expect(judgeRun('shell', loop)).toBe('TIME_LIMIT_EXCEEDED');
    const sleeper = await run('sleep 30', 1000);
    expect(sleeper.timedOut).toBe(true);
    const bcLoop = await run('echo "while (1) { }" | bc', 1000);
    expect(bcLoop.timedOut).toBe(true);
    expect((await run('echo next')).stdout).toBe('next\n');
  });

  it('runs long loops and deep-ish recursion that a real bash runs (no command-count limits)', async () => {
    const r = await run('i=0\nwhile (( i < 150000 )); do i=$((i + 1)); done\necho $i\nf() { (( $1 == 0 )) && return; f $(( $1 - 1 )); }\nf 500\necho deep', 60_000);
    expect(r).toMatchObject({ exitCode: 0, stdout: '150000\ndeep\n' });
  }, 90_000);

  it('has bc (absent from just-bash): the usual shell idioms', async () => {
    const r = await run([
      'echo "scale=2; 10/3" | bc', 'bc <<< "3.5 > 2"', 'x=$(echo "1.5 + 2.25" | bc); echo "[$x]"', 'echo "scale=4; sqrt(2)" | bc',
      'echo "s(0)" | bc -l', 'echo "2^64" | bc', 'printf "%.2f\\n" "$(echo "scale=3; 2/3" | bc)"',
    ].join('\n'));
    expect(r).toMatchObject({ exitCode: 0, stderr: '', stdout: '3.33\n1\n[3.75]\n1.4142\n0\n18446744073709551616\n0.67\n' });
  });

  it.skipIf(!HAVE.bc)('bc prints exactly what GNU bc prints', () => {
    const programs: Array<[string, string[]]> = [
      ['scale=2; 1/2; -1/2; 0/5; 1-1.00', []], ['2^300', []], ['scale=100; 1/3', []], ['obase=2; 10; 5.75; obase=16; 255; -255; 0.1', []],
      ['scale=20; sqrt(2)', []], ['e(1); l(2); s(1); c(1); a(1); j(1,2)', ['-l']], ['scale=3; 10 % 3.3; 1.1^10', []],
      ['define f(n) { if (n<=1) return 1; return n*f(n-1); }\nf(25)', []], ['x = 3 < 5; x; -2^2; x++; x', []],
      ['for (i = 1; i <= 3; i++) { print i, " " }; print "\\n"', []], ['scale=2; 5/0; 7\n8', []], ['syntax ) error\n5', []],
      ['scale=10; e(2); l(10); c(0); a(0.5); e(-1); l(0.5)', ['-l']], ['ibase=16; FF; A', []], ['12345678901234567890.123456789 * 3', []],
    ];
    for (const [program, args] of programs) {
      const real = execFileSync('bc', args, { input: `${program}\n`, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
      expect(runBc([`${program}\n`], { mathLib: args.includes('-l') }).stdout, program).toBe(real);
    }
  });

  it.skipIf(!HAVE.bash)('agrees with the real bash on everyday idioms, except the known differences', async () => {
    // without the tools themselves here, their probes cannot be compared (CI installs both)
    const probes = PROBES.filter((p) => (HAVE.bc || !/\bbc\b/.test(p)) && (HAVE.jq || !/\bjq\b/.test(p)));
    const disagreements: string[] = [];
    for (const probe of probes) {
      const real = await runRealBash(probe, 10_000);
      const mine = await run(probe);
      if (mine.stdout !== real.stdout || mine.exitCode !== real.exitCode) disagreements.push(probe);
    }
    const unexpected = disagreements.filter((p) => !KNOWN_DIFFERENCES.has(p));
    console.log(`shell idioms: just-bash agrees with the real bash on ${probes.length - disagreements.length}/${probes.length} (${(((probes.length - disagreements.length) / probes.length) * 100).toFixed(1)}%); known differences ${KNOWN_DIFFERENCES.size}${probes.length < PROBES.length ? ` (${PROBES.length - probes.length} skipped: no bc or jq here)` : ''}`);
    expect(unexpected).toEqual([]);
  }, 180_000);

  it('runs in the Node worker pool as the CLI does', async () => {
    const pool = createNodeExecutor({ poolSize: 1 });
    try {
      const r = await pool.run({ language: 'shell', program: 'echo "scale=1; 7/2" | bc', timeoutMs: 10_000 });
      expect(r).toMatchObject({ exitCode: 0, stdout: '3.5\n', runtime: shell.description });
      const loop = await pool.run({ language: 'shell', program: 'while :; do :; done', timeoutMs: 1000 });
      expect(judgeRun('shell', loop)).toBe('TIME_LIMIT_EXCEEDED');
    } finally {
      await pool.dispose();
    }
  }, 60_000);

  describe.skipIf(!HAVE.bash)('demo set: just-bash and the real bash give the same verdicts', () => {
    const dataset = parseDataset(readFileSync('bench-data/demo.jsonl', 'utf8'));
    const problems = dataset.problems.filter((p) => p.language === 'shell');
    const answersText = readFileSync('bench-data/demo-answers.jsonl', 'utf8');
    const recorded = new Map(answersText.trim().split('\n').map((l) => JSON.parse(l) as { id: string; expected: { demo: string; full: string } }).map((a) => [a.id, a.expected]));
    const TIMEOUT_MS = 5000;

    it('canonical solutions and recorded answers, demo and full runs', async () => {
      expect(problems.length).toBeGreaterThanOrEqual(5);
      const canonical = await evaluateAll(problems, canonicalModel, executor, { concurrency: 1, timeoutMs: () => TIMEOUT_MS });
      const answers = await evaluateAll(problems, replayAnswersModel('demo-answers.jsonl', parseAnswers(answersText).answers), executor, { concurrency: 1, timeoutMs: () => TIMEOUT_MS });
      expect(canonical.filter((r) => r.verdict !== 'passed').map((r) => `${r.id}: ${r.demo?.outcome}/${r.full?.outcome}`)).toEqual([]);
      expect(answers.map((r) => ({ id: r.id, outcome: { demo: r.demo?.outcome, full: r.full?.outcome } }))).toEqual(
        problems.map((p) => ({ id: p.id, outcome: recorded.get(p.id) })),
      );

      const runs = [...canonical, ...answers].flatMap((r) => [r.demo!, r.full!].map((run) => ({ id: r.id, run })));
      const disagreements: string[] = [];
      for (const { id, run } of runs) {
        const real = await runRealBash(run.program, TIMEOUT_MS);
        const native = judgeRun('shell', real);
        if (native !== run.outcome) disagreements.push(`${id}: just-bash ${run.outcome}, bash ${native}\n${real.stdout.slice(0, 300)}${real.stderr.slice(0, 300)}`);
      }
      console.log(`shell demo set: just-bash agrees with the real bash on ${runs.length - disagreements.length}/${runs.length} runs (${(((runs.length - disagreements.length) / runs.length) * 100).toFixed(1)}%)${HAVE.bc ? '' : ' (no bc on this machine)'}`);
      expect(disagreements).toEqual([]);
    }, 180_000);
  });
});
