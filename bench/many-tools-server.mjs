// A minimal modern (2026-07-28) stdio server with N tools (default 5000), paginated 500 per
// page, for start-up benchmarks. Usage: node bench/many-tools-server.mjs [N]
import { createInterface } from 'node:readline';

const N = Number(process.argv[2] ?? 5000);
const PAGE = 500;
const tools = Array.from({ length: N }, (_, i) => ({
  name: `tool_${String(i).padStart(5, '0')}`,
  title: `Tool number ${i}`,
  description: `Does thing ${i}. A description long enough to be realistic, with a second clause.`,
  inputSchema: { type: 'object', properties: { q: { type: 'string', description: 'query' }, n: { type: 'integer' } }, required: ['q'] },
  annotations: { readOnlyHint: i % 2 === 0 },
}));
const serverInfo = { 'io.modelcontextprotocol/serverInfo': { name: 'many-tools', version: '1.0.0' } };
const send = (m) => process.stdout.write(JSON.stringify(m) + '\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  const ok = (result) => send({ jsonrpc: '2.0', id: m.id, result: { resultType: 'complete', ...result, _meta: serverInfo } });
  if (m.method === 'server/discover') return ok({ supportedVersions: ['2026-07-28'], capabilities: { tools: { listChanged: true } } });
  if (m.method === 'tools/list') {
    const start = Number(m.params?.cursor ?? 0);
    const next = start + PAGE < N ? String(start + PAGE) : undefined;
    return ok({ tools: tools.slice(start, start + PAGE), ...(next ? { nextCursor: next } : {}) });
  }
  if (m.method === 'subscriptions/listen') {
    return send({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { toolsListChanged: true }, _meta: { 'io.modelcontextprotocol/subscriptionId': m.id } },
    });
  }
  send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
});
