/**
 * OAuth 2.1 for HTTP MCP servers, as a client: the seam the HTTP transport calls
 * ({@link AuthProvider}), the provider behind it, the token store the `auth` commands
 * read, and the errors. spec: basic/authorization (2026-07-28)
 */
export type { AuthChallenge, AuthProvider } from './types.js';
export { createOAuthProvider, type OAuthProvider, type OAuthProviderOptions } from './provider.js';
export type { ClientSettings } from './registration.js';
export { resolveBrowser, type BrowserChoice } from './browser.js';
export { AuthError, AuthRequiredError, type AuthErrorCode } from './errors.js';
export {
  authStoreDir,
  deleteTokens,
  listTokens,
  tokenStatus,
  type ClientSource,
  type StoreOptions,
  type TokenEndpointAuthMethod,
  type TokenStatus,
} from './store.js';
export { maskBody, maskUrl } from './mask.js';
export { sendAuthorized, type AuthorizedAnswer } from './send.js';
