// Writes the hostile eval sets in bench-data/hostile from the attack definitions in
// tests/support/hostile: hostile.jsonl from attacks.ts, host.jsonl from host-attacks.ts and
// clean-slate.jsonl from clean-slate-attacks.ts:
// `npx tsx scripts/build-hostile-data.mts`. Tests (tests/security/hostile-node.test.ts,
// hostile-eval.test.ts) check that the committed files match.
import { writeFileSync } from 'node:fs';
import { hostileJsonl } from '../tests/support/hostile/attacks';
import { cleanSlateJsonl } from '../tests/support/hostile/clean-slate-attacks';
import { hostJsonl } from '../tests/support/hostile/host-attacks';

const out = (name: string) => new URL(`../bench-data/hostile/${name}`, import.meta.url);
writeFileSync(out('hostile.jsonl'), hostileJsonl());
writeFileSync(out('host.jsonl'), hostJsonl());
writeFileSync(out('clean-slate.jsonl'), cleanSlateJsonl());
console.log('bench-data/hostile/hostile.jsonl, host.jsonl and clean-slate.jsonl written');
