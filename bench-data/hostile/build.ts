// Writes hostile.jsonl from attacks.ts: `npx tsx bench-data/hostile/build.ts`. A test
// (tests/security/hostile-node.test.ts) checks that the committed file matches.
import { writeFileSync } from 'node:fs';
import { hostileJsonl } from './attacks';

writeFileSync(new URL('./hostile.jsonl', import.meta.url), hostileJsonl());
console.log('bench-data/hostile/hostile.jsonl written');
