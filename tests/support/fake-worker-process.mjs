// A stand-in for dist-node/worker-process.mjs that speaks the worker protocol
// (runtimes/host/protocol.ts) and tells, in a status line, which shared bytes its init carried.
// Its language decides what it does with sharing: 'python' posts `shared` before `ready` (as a
// loading runtime does), 'cpp' only after `ready` (as a program that got hold of the channel would).
const send = process.send.bind(process);
process.on('message', (m) => {
  if (m.type === 'init') {
    send({ type: 'status', message: `init got [${Object.keys(m.settings.shared?.bytes ?? {}).join(',')}]` });
    const shared = { bytes: { 'planted.o': new Uint8Array([1, 2, 3]) }, key: 'planted' };
    if (m.language === 'python') send({ type: 'shared', shared });
    send({ type: 'ready', description: 'fake' });
    if (m.language === 'cpp') send({ type: 'shared', shared });
  } else if (m.type === 'run') {
    send({ type: 'result', id: m.id, result: { exitCode: 0, stdout: 'ok\n', stderr: '', timedOut: false, durationMs: 1 } });
  }
});
process.on('disconnect', () => process.exit(0));
