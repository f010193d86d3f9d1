// A server spawned early (StdioTransport.prespawn, before the client's code has loaded) that
// dies before start(): what it printed must still reach the error. child_process resumes an
// unread pipe when the process exits and drops what was in it, so the transport reads from the
// spawn on (seen in CI: "exited with code 9" without node's reason).
import { describe, expect, it } from 'vitest';
import { StdioTransport } from '../../src/transport/stdio.js';
import { pidAlive } from '../helpers/servers.js';

describe('a server spawned early that exits before start()', () => {
  it('keeps its stderr and stdout for the error and the hooks', async () => {
    const t = new StdioTransport({
      command: process.execPath,
      args: ['-e', "process.stdout.write('not json\\n'); process.stderr.write('boom: no config\\nlast words without newline'); process.exit(4)"],
    });
    t.prespawn();
    const pid = t.pid!;
    await expect.poll(() => !pidAlive(pid), { timeout: 20_000 }).toBe(true);
    const stderr: string[] = [];
    const findings: string[] = [];
    const closed = new Promise<string>((resolve) => t.setHooks({ onStderr: (l) => stderr.push(l), onFinding: (f) => findings.push(f.rule), onClose: resolve }));
    await t.start();
    const reason = await closed;
    expect(reason).toBe('the server process exited with code 4');
    expect(stderr).toEqual(['boom: no config', 'last words without newline']);
    expect(findings.length).toBe(1);
    await expect(t.request({ jsonrpc: '2.0', id: 1, method: 'ping' })).rejects.toThrow(/exited with code 4/);
    await t.close();
  });
});
