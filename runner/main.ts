/** `npm run runner`: the remote runner service (configuration in runner/README.md). */
import { ConfigError, configFromEnvironment, startRunner } from './runner';

const timestamp = () => new Date().toISOString().slice(11, 19);

async function main(): Promise<void> {
  const config = configFromEnvironment(process.env, process.argv.slice(2));
  const runner = await startRunner(config, { log: (line) => console.error(`${timestamp()} ${line}`) });
  console.log(`benchtop runner listening on ${runner.url}`);
  console.log(`  auth: ${config.token ? 'bearer token (RUNNER_TOKEN)' : 'none (set RUNNER_TOKEN to require a bearer token)'}`);
  console.log(`  CORS origins: ${config.allowedOrigins.join(', ') || 'none (set ALLOWED_ORIGINS)'}`);
  console.log(`  host names served: localhost, 127.0.0.1, ::1, the listen address${config.allowedHosts?.length ? `, ${config.allowedHosts.join(', ')}` : ' (RUNNER_ALLOWED_HOSTS adds more)'}`);
  console.log(`  at most ${config.maxConcurrency} runs at once, ${config.queueLimit} waiting`);
  if (config.upstream) {
    console.log(`  proxy mode: /submit and /splice_code go to ${config.upstream}`);
  } else {
    const prepared = runner.prepared!;
    const isolation = prepared.sandbox.isolation;
    if (isolation.mode === 'none') {
      console.log('  !!! WARNING: NO SANDBOX. Programs run with rlimits only and can reach the network and the file system.');
      for (const f of prepared.failures) console.log(`  !!!   ${f}`);
    }
    console.log(`  isolation: ${isolation.mode}: ${isolation.description}`);
    console.log('  probing toolchains…');
    await prepared.ready;
    const languages = prepared.executor.languages();
    const available = languages.filter((l) => l.available);
    console.log(`  languages (${available.length}/${languages.length} available):`);
    for (const l of languages) {
      console.log(`    ${l.id.padEnd(10)} ${l.available ? `${l.command}  [${l.version}]` : l.install}`);
    }
  }
  const stop = () => { void runner.close().then(() => process.exit(0)); };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: Error) => {
  console.error(e instanceof ConfigError ? `error: ${e.message}` : e.stack ?? String(e));
  process.exit(e instanceof ConfigError ? 2 : 1);
});
