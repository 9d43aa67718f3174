// Writes hostile.jsonl from attacks.ts, host.jsonl from host-attacks.ts and clean-slate.jsonl
// from clean-slate-attacks.ts:
// `npx tsx bench-data/hostile/build.ts`. Tests (tests/security/hostile-node.test.ts,
// hostile-eval.test.ts) check that the committed files match.
import { writeFileSync } from 'node:fs';
import { hostileJsonl } from './attacks';
import { cleanSlateJsonl } from './clean-slate-attacks';
import { hostJsonl } from './host-attacks';

writeFileSync(new URL('./hostile.jsonl', import.meta.url), hostileJsonl());
writeFileSync(new URL('./host.jsonl', import.meta.url), hostJsonl());
writeFileSync(new URL('./clean-slate.jsonl', import.meta.url), cleanSlateJsonl());
console.log('bench-data/hostile/hostile.jsonl, host.jsonl and clean-slate.jsonl written');
