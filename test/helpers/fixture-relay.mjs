// The stub's half of the fixture host (test/helpers/fixture-host.mjs, where the frames are
// described): the runner of a hosted fixture's bundle calls relay() when started with `--stdio`
// or `--http`. It imports only node:net, so that the process costs little more than a bare Node
// start. The host reads and writes its frames with the same two helpers.
import { connect } from 'node:net';

/** One frame: a type byte, a 4-byte big-endian length, the payload (bytes, or text as UTF-8). */
export function frame(type, payload = Buffer.alloc(0)) {
  const data = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const head = Buffer.alloc(5);
  head[0] = type;
  head.writeUInt32BE(data.length, 1);
  return Buffer.concat([head, data]);
}

/** Calls `onFrame(type, payload)` for each whole frame read from `sock`. */
export function readFrames(sock, onFrame) {
  let buf = Buffer.alloc(0);
  sock.on('data', (d) => {
    buf = buf.length ? Buffer.concat([buf, d]) : d;
    while (buf.length >= 5) {
      const len = buf.readUInt32BE(1);
      if (buf.length < 5 + len) break;
      const type = buf[0];
      const payload = buf.subarray(5, 5 + len);
      buf = buf.subarray(5 + len);
      onFrame(type, payload);
    }
  });
}

/** Ends this process as `sig` would (its listener removed first). */
function die(sig) {
  process.removeAllListeners(sig);
  process.kill(process.pid, sig);
}

/**
 * Serves this process's stdio through the host listening at `socketPath` as `fixture` (its
 * name relative to the bundle folder). Resolves with false when no host answers (the caller
 * then runs the fixture itself), with true once one does; the process then ends when the
 * session does: with its exit code, or its signal.
 */
export function relay(socketPath, fixture) {
  return new Promise((resolve) => {
    const sock = connect(socketPath);
    sock.once('error', () => resolve(false));
    sock.once('connect', () => {
      sock.removeAllListeners('error');
      resolve(true);
      let ended = false;
      sock.on('error', () => {});
      sock.write(frame(0, JSON.stringify({ fixture, argv: process.argv.slice(2), env: process.env, cwd: process.cwd() })));
      process.stdin.on('data', (d) => sock.write(frame(1, d)));
      process.stdin.on('end', () => sock.write(frame(2)));
      process.stdin.on('error', () => {});
      for (const sig of ['SIGTERM', 'SIGINT']) {
        process.on(sig, () => {
          sock.write(frame(3, sig));
          // A host that does not answer: the signal's own end, a little later.
          setTimeout(() => die(sig), 5000).unref();
        });
      }
      readFrames(sock, (type, payload) => {
        if (type === 1) process.stdout.write(payload);
        else if (type === 2) process.stderr.write(payload);
        else if (type === 3) {
          ended = true;
          const status = payload.toString('utf8');
          if (/^\d+$/.test(status)) process.exit(Number(status));
          die(status);
        }
      });
      sock.on('close', () => {
        if (ended) return;
        process.stderr.write(`fixture host: the session of ${fixture} was lost\n`);
        process.exit(1);
      });
    });
  });
}
