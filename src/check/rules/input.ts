/**
 * Rules over what the user gave against what the server declares: an argument key the tool's
 * inputSchema (or the prompt's `arguments`) does not name, an `--elicit` answer no input
 * request asked for. A typo there is sent silently otherwise: the official SDKs publish
 * schemas without `additionalProperties: false`, so the server ignores the key and uses its
 * default. Pure: observed values in, findings out.
 * spec: server/tools#calling-tools, server/prompts#getting-a-prompt, client/elicitation
 */
import { finding } from '../rules.js';
import type { Finding } from '../types.js';

/** What an argument was given to: a tool (`tools/call`) or a prompt (`prompts/get`). */
export interface ArgumentOwner {
  kind: 'tool' | 'prompt';
  name: string;
}

/** One undeclared key and the declared names close to it (closest first, possibly none). */
export interface UndeclaredArgument {
  key: string;
  near: string[];
}

const q = (s: string) => `'${s}'`;

/** The message of an undeclared argument: `'delayMS' is not an argument of tool slow; did you mean 'delayMs'?`. */
export function undeclaredArgumentMessage(owner: ArgumentOwner, a: UndeclaredArgument): string {
  const near = a.near.length ? `; did you mean ${a.near.map(q).join(' or ')}?` : '';
  return `${q(a.key)} is not an argument of ${owner.kind} ${owner.name}${near}`;
}

/**
 * `input.undeclared-argument`, one per key (keyed by owner and key): the argument was sent
 * as given. `data`: `{ tool | prompt, argument, suggestions }`.
 */
export function undeclaredArgumentFindings(owner: ArgumentOwner, list: readonly UndeclaredArgument[]): Finding[] {
  return list.map((a) =>
    finding('input.undeclared-argument', `${undeclaredArgumentMessage(owner, a)} (sent anyway; --strict-args refuses it)`, {
      key: `${owner.kind}\u0000${owner.name}\u0000${a.key}`,
      data: { [owner.kind]: owner.name, argument: a.key, suggestions: a.near },
    }),
  );
}

/**
 * `input.unused-answer`, one per `--elicit` key no input request of the run asked for.
 * `asked`: the request keys that did come (for the did-you-mean), `near`: those close to the key.
 * `data`: `{ key, suggestions }`.
 */
export function unusedAnswerFinding(key: string, near: readonly string[]): Finding {
  const hint = near.length ? `; did you mean ${near.map(q).join(' or ')}?` : '';
  return finding('input.unused-answer', `--elicit ${key} was not used: no input request of this run had the key ${q(key)}${hint}`, {
    key,
    data: { key, suggestions: [...near] },
  });
}
