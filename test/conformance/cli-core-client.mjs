#!/usr/bin/env node
// Conformance client for the scored core (non-auth) client scenarios, as a process of its own
// (clients.mjs coreClient: `tools <url> --json`, then `call` for each call of the scenario,
// input rounds continued with `call --resume`). The tests run the same client in their own
// process (harness.ts inProcessClient); this is for a run by hand:
//
//   conformance client --command "node test/conformance/cli-core-client.mjs" --scenario tools_call --spec-version 2026-07-28
//
// Build first (it runs dist/). Exits 0 when every command succeeded, else the first failing command's exit code.
import { coreClient, runAsProcess } from './clients.mjs';

await runAsProcess(coreClient);
