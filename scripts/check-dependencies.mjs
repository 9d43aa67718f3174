/**
 * The dependency check of `npm run check`: dependency-cruiser with .dependency-cruiser.cjs over
 * the given folders (default: src runtimes runner scripts). Exits 1 on any error-severity violation.
 * Through its API rather than its `depcruise` command, which refuses to start on Node 20 (the
 * API itself runs there; the command's engine check is all that stops it).
 */
import { resolve } from 'node:path';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';

const args = process.argv.slice(2);
const configAt = args.indexOf('--config');
const config = configAt >= 0 ? args.splice(configAt, 2)[1] : '.dependency-cruiser.cjs';
const folders = args.length ? args : ['src', 'runtimes', 'runner', 'scripts'];

const options = await extractDepcruiseOptions(resolve(config));
const result = await cruise(folders, { ...options, validate: true, outputType: 'err' });
process.stdout.write(result.output);
process.exitCode = result.exitCode > 0 ? 1 : 0;
