/**
 * MCP server configuration: discovery of the clients' config files, JSONC and TOML, `${…}`
 * variables, and the choice of one server. See discover.ts for the search order.
 */
export * from './types.js';
export {
  configLocations,
  explicitLocations,
  appDataDir,
  claudeJsonPath,
  codexConfigPath,
  showPath,
  type ConfigLocation,
  type ConfigFormat,
} from './locations.js';
export { parseJsonc, parseToml, positionAt, type ParsedDocument, type Position } from './parse.js';
export {
  discoverServers,
  findServer,
  describeSource,
  shadowWarning,
  CLIENT_NAMES,
  type Discovery,
  type FoundServer,
  type SearchedLocation,
} from './discover.js';
export { resolveEntry, gatherInputs, type ConfigTarget, type ResolvedServer } from './resolve.js';
export { substitute, inputIdsIn, type VariableScope } from './variables.js';
export { parseDotenv } from './dotenv.js';
export { readConfigFile, processConfigContext } from './files.js';
export { ttyPrompt, canPrompt, InputCancelledError } from './prompt.js';
export { approvalNeed, approvalHash, parseApprovals, addApproval, trustProjectFromEnv, APPROVALS_FILE } from './approval.js';
