#!/usr/bin/env node
// A modern (2026-07-28) stdio server with N tools (default 100) that, once listened to, sends
// a storm of notifications/tools/list_changed: RATE per second (default 1,000, sent in
// batches every 10 ms) for STORM_MS (default 2,000), each one after a change of the list (one tool's
// description carries the generation number). It counts the tools/list requests it answers
// and, when its stdin ends (or on SIGTERM), writes a JSON report to REPORT:
//   { notifications, lists, listsDuringStorm, stormMs, finalGeneration, listedFinal, lastListMs }
// listedFinal: a tools/list was answered with the final generation (the final state was seen);
// lastListMs: when the last tools/list arrived, in ms since this process started (every
// request the client sent was sent within that span: a bound on how many it could send).
// Usage: node bench/storm-server.mjs REPORT [--tools N] [--rate R] [--storm-ms MS]
import { writeFileSync } from 'node:fs';
import { args, answerModern, listenAck, readStdinLines, result, toolsListChanged, writeLine } from '../test/fixtures/faults/lib.mjs';

const report = process.argv[2];
const a = args(process.argv.slice(3));
const N = Number(a.get('--tools', '100'));
const RATE = Number(a.get('--rate', '1000'));
const STORM_MS = Number(a.get('--storm-ms', '2000'));
const serverInfo = { name: 'storm-server', version: '1.0.0' };
let generation = 0;
const tools = () =>
  Array.from({ length: N }, (_, i) => ({
    name: `tool_${i}`,
    description: i === 0 ? `generation ${generation}` : `Tool ${i}, unchanged.`,
    inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  }));
const stats = { notifications: 0, lists: 0, listsDuringStorm: 0, stormMs: STORM_MS, finalGeneration: 0, listedFinal: false, lastListMs: 0 };
let storming = false;
let done = false;

function finish() {
  if (done) return;
  done = true;
  stats.finalGeneration = generation;
  writeFileSync(report, JSON.stringify(stats));
  process.exit(0);
}

readStdinLines(
  (msg) => {
    if (msg.id === undefined) return;
    if (msg.method === 'subscriptions/listen') {
      const id = msg.id;
      writeLine(listenAck(id, msg.params?.notifications));
      const start = Date.now();
      storming = true;
      // As many as are due by now: timers fire late, the rate stays RATE.
      const timer = setInterval(() => {
        const elapsed = Math.min(Date.now() - start, STORM_MS);
        const due = Math.floor((elapsed * RATE) / 1000) - stats.notifications;
        for (let i = 0; i < due; i++) {
          generation++;
          stats.notifications++;
          writeLine(toolsListChanged(id));
        }
        if (elapsed >= STORM_MS) {
          clearInterval(timer);
          storming = false;
        }
      }, 10);
      return;
    }
    if (msg.method === 'tools/list') {
      stats.lists++;
      stats.lastListMs = performance.now();
      if (storming) stats.listsDuringStorm++;
      if (!storming && generation > 0) stats.listedFinal = true;
      writeLine(result(msg.id, { tools: tools(), ttlMs: 0, cacheScope: 'private' }, serverInfo));
      return;
    }
    const reply = answerModern(msg, { serverInfo });
    if (reply) writeLine(reply);
  },
  { onEnd: finish },
);
process.on('SIGTERM', finish);
