#!/usr/bin/env node
// Conformance client for the `auth/*` scenarios, as a process of its own (clients.mjs
// authClient: `tools <url>` through the OAuth flow with a headless --browser, then `call <url>
// <first tool>`). The tests run the same client in their own process (harness.ts
// inProcessClient); this is for a run by hand:
//
//   conformance client --command "node test/conformance/cli-client.mjs" --scenario auth/metadata-default --spec-version 2026-07-28
//
// Build first (it runs dist/). Exits with the CLI's exit code (0 when both commands succeeded).
import { authClient, runAsProcess } from './clients.mjs';

await runAsProcess(authClient);
