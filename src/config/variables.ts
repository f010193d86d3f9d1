/**
 * `${…}` variables in config values, as the clients write them:
 *
 * | form | value | written by |
 * |---|---|---|
 * | `${env:NAME}` | the environment variable | VS Code, Cursor, Windsurf |
 * | `${NAME}`, `${NAME:-default}` | the environment variable (default when unset or empty) | Claude Code |
 * | `${userHome}` | the home folder | VS Code, Cursor |
 * | `${workspaceFolder}` | the project folder of a project config; the cwd for a user config | VS Code, Cursor |
 * | `${workspaceFolderBasename}` | its last segment | VS Code, Cursor |
 * | `${pathSeparator}`, `${/}` | `/` (`\` on Windows) | VS Code, Cursor |
 * | `${input:ID}` | a value given, asked, or declared as default | VS Code `inputs` |
 *
 * Every form is accepted in every file (a config copied from one client to another keeps
 * working). An undefined variable, an unset environment variable without a default, and an
 * unsupported form (`${command:…}`, `${config:…}`, `${file:…}`) are errors: nothing is ever
 * sent with a literal `${…}` in it. Substitution is one pass: a value that itself contains
 * `${…}` is not expanded again. Pure.
 */
import { ConfigError } from './types.js';

/** What variables resolve against. */
export interface VariableScope {
  env: Readonly<Record<string, string | undefined>>;
  /** Windows looks up environment names case-insensitively. */
  platform: NodeJS.Platform;
  userHome: string;
  workspaceFolder: string;
  /** Values of `${input:ID}`, gathered beforehand (see inputIdsIn). */
  inputs: Readonly<Record<string, string>>;
}

/** Where a value sits, for messages: `server "x" (~/.cursor/mcp.json) "args[1]"`. */
export interface VariablePlace {
  server: string;
  file: string;
  /** The field: `command`, `args[1]`, `env.TOKEN`, `headers.Authorization`, `url`, `cwd`… */
  field: string;
  /** The file as shown in messages. */
  shownFile: string;
}

const VARIABLE = /\$\{([^{}]*)\}/g;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The `${input:ID}` ids used in `s`, in order, without repeats. */
export function inputIdsIn(s: string): string[] {
  const ids: string[] = [];
  for (const m of s.matchAll(VARIABLE)) {
    const body = m[1];
    if (body.startsWith('input:')) {
      const id = body.slice('input:'.length);
      if (id && !ids.includes(id)) ids.push(id);
    }
  }
  return ids;
}

/** Looks an environment variable up (case-insensitively on Windows). */
export function lookupEnv(env: Readonly<Record<string, string | undefined>>, name: string, platform: NodeJS.Platform): string | undefined {
  const v = env[name];
  if (v !== undefined || platform !== 'win32') return v;
  const lower = name.toLowerCase();
  for (const [k, val] of Object.entries(env)) if (k.toLowerCase() === lower) return val;
  return undefined;
}

/**
 * Replaces every `${…}` in `s`. Throws ConfigError('MCPI_CONFIG_VARIABLE') for an unset
 * environment variable without default, an unknown or unsupported variable, and
 * ConfigError('MCPI_CONFIG_INPUT') for an input with no value in `scope.inputs`.
 */
export function substitute(s: string, scope: VariableScope, place: VariablePlace): string {
  if (!s.includes('${')) return s;
  const sep = scope.platform === 'win32' ? '\\' : '/';
  const fail = (what: string) =>
    new ConfigError('MCPI_CONFIG_VARIABLE', `server "${place.server}" (${place.shownFile}), "${place.field}": ${what}`, {
      file: place.file,
      server: place.server,
    });
  return s.replace(VARIABLE, (whole, body: string) => {
    switch (body) {
      case 'userHome':
        return scope.userHome;
      case 'workspaceFolder':
        return scope.workspaceFolder;
      case 'workspaceFolderBasename':
        return scope.workspaceFolder.split(/[\\/]/).filter(Boolean).pop() ?? scope.workspaceFolder;
      case 'pathSeparator':
      case '/':
        return sep;
    }
    if (body.startsWith('env:')) {
      const name = body.slice(4);
      if (!name) throw fail(`${whole} names no variable`);
      const v = lookupEnv(scope.env, name, scope.platform);
      if (v === undefined) throw fail(`${whole}: the environment variable ${name} is not set`);
      return v;
    }
    if (body.startsWith('input:')) {
      const id = body.slice(6);
      const v = scope.inputs[id];
      if (v === undefined) {
        throw new ConfigError(
          'MCPI_CONFIG_INPUT',
          `server "${place.server}" (${place.shownFile}), "${place.field}": ${whole} has no value; pass it with --config-input ${id}=VALUE`,
          { file: place.file, server: place.server, inputId: id },
        );
      }
      return v;
    }
    const dflt = /^([A-Za-z_][A-Za-z0-9_]*):-(.*)$/s.exec(body);
    if (dflt) {
      const v = lookupEnv(scope.env, dflt[1], scope.platform);
      return v === undefined || v === '' ? dflt[2] : v;
    }
    if (ENV_NAME.test(body)) {
      const v = lookupEnv(scope.env, body, scope.platform);
      if (v === undefined) throw fail(`${whole}: the environment variable ${body} is not set (write \${${body}:-default} for a default)`);
      return v;
    }
    const kind = /^([A-Za-z]+):/.exec(body)?.[1];
    throw fail(
      kind
        ? `${whole}: mcp-inspect does not support \${${kind}:…} variables (supported: \${env:NAME}, \${NAME}, \${userHome}, \${workspaceFolder}, \${input:ID})`
        : `${whole} is not a variable mcp-inspect knows (supported: \${env:NAME}, \${NAME}, \${userHome}, \${workspaceFolder}, \${input:ID})`,
    );
  });
}
