// Writes hostile.jsonl from attacks.ts and host.jsonl from host-attacks.ts:
// `npx tsx bench-data/hostile/build.ts`. Tests (tests/security/hostile-node.test.ts) check that
// the committed files match.
import { writeFileSync } from 'node:fs';
import { hostileJsonl } from './attacks';
import { hostJsonl } from './host-attacks';

writeFileSync(new URL('./hostile.jsonl', import.meta.url), hostileJsonl());
writeFileSync(new URL('./host.jsonl', import.meta.url), hostJsonl());
console.log('bench-data/hostile/hostile.jsonl and host.jsonl written');
