/**
 * The shapes of MCP server configuration as the popular clients write it (Claude Code, Claude
 * Desktop, Cursor, VS Code, Windsurf, Codex), normalized to one {@link ServerEntry}, and the
 * one error class of this folder.
 */
import { UsageError } from '../protocol/errors.js';

/** The clients whose config files are searched, in search order; `file` is a `--config` / `$MCP_INSPECT_CONFIG` file of no known client. */
export type ClientId = 'claude-code' | 'claude-desktop' | 'cursor' | 'vscode' | 'windsurf' | 'codex' | 'file';

/** `project`: belongs to the current folder; `user`: the user's own, for every folder. Project entries come first. */
export type ConfigScope = 'project' | 'user';

/** The transport an entry speaks, derived from `type`, `command` and `url`. */
export type EntryTransport = 'stdio' | 'http' | 'sse';

/** `type` values the clients write. `http` and `streamable-http` are the same transport. */
export const ENTRY_TYPES = ['stdio', 'http', 'streamable-http', 'sse'] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

/**
 * Where one set of servers came from.
 * `section` names the part of the file for files holding more than one set (Claude Code's
 * `~/.claude.json`: `mcpServers` for the user, `projects["/abs/path"].mcpServers` for a project).
 */
export interface ConfigSource {
  client: ClientId;
  /** Absolute path of the file. */
  file: string;
  scope: ConfigScope;
  /** The value of `${workspaceFolder}`: the folder of a project config, the cwd for a user config. Absolute. */
  workspaceFolder: string;
  section?: string;
}

/**
 * Our own `oauth` field (read by the authorization work), and the clients' equivalents mapped
 * onto it (Codex `[mcp_servers.NAME.oauth] client_id`). Unknown keys are ignored: Claude Code
 * writes `callbackPort` here.
 */
export interface OAuthEntry {
  clientId?: string;
  clientSecret?: string;
  /** A Client ID Metadata Document URL (spec: basic/authorization#client-id-metadata-documents). */
  clientMetadataUrl?: string;
  scopes?: string[];
  /** Claude Code's fixed redirect port for a pre-registered client. */
  callbackPort?: number;
}

/**
 * One server as written in a config file, validated and normalized (before variable
 * substitution): `serverUrl` (Windsurf) is folded into `url`, Codex's `http_headers`,
 * `env_http_headers`, `bearer_token_env_var` into `headers`, `enabled = false` into `disabled`.
 * Values still hold `${…}` variables; see resolveEntry.
 */
export interface ServerEntry {
  /** The `type` as written (lower-cased), when written. */
  type?: EntryType;
  transport: EntryTransport;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  /** A dotenv file whose variables are added under `env` (VS Code, Cursor). Relative to the workspace folder. */
  envFile?: string;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  disabled?: boolean;
  /** Our own: folders offered as roots (`roots/list`). Relative paths are relative to the workspace folder. */
  roots?: string[];
  oauth?: OAuthEntry;
}

/** A VS Code `inputs` declaration, referenced as `${input:ID}`. */
export interface ConfigInput {
  id: string;
  /** `promptString` or `pickString` as VS Code writes them. */
  type: string;
  description?: string;
  /** Masked when prompted. */
  password?: boolean;
  /** Used when no value is given and nobody can be asked. */
  default?: string;
  /** The choices of a `pickString`. */
  options?: string[];
}

/** A server found in a config file. */
export interface DiscoveredServer {
  name: string;
  source: ConfigSource;
  /** Undefined when the entry is invalid; then `error` says why. */
  entry?: ServerEntry;
  /** Why the entry cannot be used (bad types, no command nor url…). */
  error?: ConfigError;
  /** The `inputs` declared in the same file (VS Code). */
  inputs: ConfigInput[];
  /** Listed, but used only when named explicitly, and only when no enabled entry has the same name. */
  disabled: boolean;
  /** The entry of the same name that wins over this one. */
  shadowedBy?: ConfigSource;
}

/** Stable codes of {@link ConfigError}. */
export type ConfigErrorCode =
  | 'MCPI_CONFIG_READ' // the file exists but cannot be read, or an explicit file is missing
  | 'MCPI_CONFIG_SYNTAX' // not JSONC / TOML (with line and column)
  | 'MCPI_CONFIG_SHAPE' // the file or an entry has the wrong shape (unknown type, args not an array…)
  | 'MCPI_CONFIG_VARIABLE' // an undefined or unsupported ${…} variable
  | 'MCPI_CONFIG_INPUT' // ${input:ID} without a value, and nobody to ask
  | 'MCPI_CONFIG_UNKNOWN_SERVER' // no server of that name (or none named and more than one)
  | 'MCPI_CONFIG_UNAPPROVED'; // a project entry that spawns a command or sends secrets, not approved (see approval.ts)

/**
 * A problem with the user's configuration. A {@link UsageError}: the CLI exits 64.
 * `message` is complete (it names the file, line and column, the server and the field).
 */
export class ConfigError extends UsageError {
  declare readonly code: ConfigErrorCode;
  /** Absolute path of the file, when the problem is in one. */
  readonly file: string | undefined;
  /** 1-based. */
  readonly line: number | undefined;
  /** 1-based, in characters. */
  readonly column: number | undefined;
  /** The server entry's name, when the problem is in one. */
  readonly server: string | undefined;
  /** The `${input:ID}` id (MCPI_CONFIG_INPUT). */
  readonly inputId: string | undefined;
  constructor(
    code: ConfigErrorCode,
    message: string,
    at: { file?: string; line?: number; column?: number; server?: string; inputId?: string; cause?: unknown } = {},
  ) {
    super(message);
    if (at.cause !== undefined) (this as { cause?: unknown }).cause = at.cause;
    this.name = 'ConfigError';
    this.code = code;
    this.file = at.file;
    this.line = at.line;
    this.column = at.column;
    this.server = at.server;
    this.inputId = at.inputId;
  }
}

/**
 * What the config functions need from the world, injected so tests use a temporary HOME and
 * an in-memory file system. {@link processConfigContext} builds it from the process.
 */
export interface ConfigContext {
  /** The project folder (absolute). */
  cwd: string;
  /** The user's home folder (absolute). */
  home: string;
  /** Decides the per-OS locations and path syntax. */
  platform: NodeJS.Platform;
  /** `${env:NAME}`, `APPDATA`, `XDG_CONFIG_HOME`, `CLAUDE_CONFIG_DIR`, `CODEX_HOME`, `MCP_INSPECT_CONFIG`. */
  env: Readonly<Record<string, string | undefined>>;
  /** Reads a UTF-8 file: undefined when it does not exist; throws for other failures (permission, a folder). */
  readFile: (path: string) => string | undefined;
  /** `--config FILE`: this file instead of discovery (wins over `$MCP_INSPECT_CONFIG`). Relative to cwd. */
  configFile?: string;
}

/** Extra inputs for turning an entry into a target. */
export interface ResolveContext extends ConfigContext {
  /** `--config-input ID=VALUE` values. */
  inputs?: Readonly<Record<string, string>>;
  /**
   * Asks the user for an input (only given when stdin and stderr are terminals); masked when
   * `input.password`. Rejecting aborts the resolution with that error.
   */
  prompt?: (input: ConfigInput) => Promise<string>;
}
