/**
 * The flags that decide what mcp-inspect lets a server ask it for and how it answers:
 * capability toggles (`--no-elicitation`, `--no-roots`, `--no-sampling`), scripted answers
 * (`--elicit`, `--elicit-file`, `--sampling-reply`, `--root`), the round limit
 * (`--max-rounds`) and `--resume FILE`. Kept light: `--help` loads it.
 * spec: basic/patterns/mrtr, client/elicitation, client/roots, client/sampling
 */
import type { Command } from 'commander';

export interface InputFlags {
  /** commander's `--no-elicitation` etc.: `false` when turned off. */
  elicitation?: boolean;
  roots?: boolean;
  sampling?: boolean;
  elicit?: string[];
  elicitFile?: string;
  samplingReply?: string;
  root?: string[];
  maxRounds?: string;
  resume?: string;
}

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** Adds the capability toggles, scripted answers and round limit every server command takes. */
export function addInputOptions(cmd: Command): Command {
  return cmd
    .option('--no-elicitation', 'do not declare the elicitation capability (form and url): see how the server does without it')
    .option('--no-roots', 'do not declare the roots capability')
    .option('--no-sampling', 'do not declare the sampling capability')
    .option('--elicit <KEY=JSON>', 'answer the input request KEY: JSON content to accept with, or accept, decline, cancel (repeatable)', collect)
    .option('--elicit-file <file>', 'answers from a JSON file: {"KEY": content | "accept" | "decline" | "cancel"}')
    .option('--sampling-reply <text>', "the assistant's reply to every sampling request (you are the model)")
    .option('--root <path>', 'a root to expose to the server: a directory or a file:// URI (repeatable)', collect)
    .option('--max-rounds <n>', 'answer at most N input rounds per request', '10');
}

/** Adds `--resume FILE` (the commands whose request may ask for input: call, prompts get, resources read). */
export function addResumeOption(cmd: Command): Command {
  return cmd.option('--resume <file>', 'continue the input round saved from an exit-5 run (its --json output), without sending the request again');
}

/** The help paragraph on input rounds, shared by call, prompts get and resources read. */
export const INPUT_HELP = `
Input requests (a server asking for confirmation, roots or a model reply):
  On a terminal mcp-inspect asks field by field. Otherwise give the answers:
    --elicit KEY='{"confirm":true}'   KEY is the key of the server's request; or KEY=decline, KEY=cancel
    --elicit-file answers.json        {"KEY": {...}, "OTHER": "decline"}
    --sampling-reply TEXT             --root PATH (repeatable, or the config entry's "roots")
  A legacy server's elicitations have no key of their own: KEY is their number in the run
  (1 for the first). When an answer is missing mcp-inspect exits 5 and prints what is pending
  (with --json: a document to save and continue with --resume FILE; modern servers only).`;

/**
 * Why a resumed round over stdio is refused: `--resume` runs in a new process, which spawns
 * the server anew, and a server that seals its `requestState` with a per-process key (the
 * official SDK's codec with a key made at start) no longer knows it. Shown in the pending
 * document (`resumeNote`) and under the server's -32602.
 */
export const STDIO_RESUME_NOTE =
  'over stdio, --resume starts the server anew: a server whose requestState is bound to the process that issued it refuses it; answer with --elicit on the first call, or use HTTP';

/** The hint under the server's -32602 when a resumed round with a requestState was refused over stdio. */
export const STDIO_RESUME_HINT =
  "--resume started a new server process, and this server's requestState is bound to the process that issued it; answer with --elicit on the first call, or use HTTP";
