/**
 * The grants that need no browser, as the provider (src/auth/provider.ts) runs them after
 * discovery: client credentials (a secret or `private_key_jwt`), the JWT bearer grant of
 * workload identity (RFC 7523 §2.1), and enterprise-managed authorization (SEP-990: token
 * exchange at the IdP for an ID-JAG, RFC 8693, then the JWT bearer grant). Each reports
 * its steps and resolves with the client used and the token response; the provider keeps them.
 * spec: basic/authorization (2026-07-28); RFC 6749 §4.4, RFC 7523, RFC 8693
 */
import type * as oauth from 'oauth4webapi';
import { sanitizeLine } from '../util/sanitize.js';
import { checkAssertion, readJwtFile } from './assertions.js';
import { discoverAuthorizationServer, type AuthorizationServerInfo, type ProtectedResource } from './discovery.js';
import type { DpopKey } from './dpop.js';
import { AuthError } from './errors.js';
import { assertionEvidence } from './explain.js';
import { clientCredentialsGrant, JWT_BEARER_GRANT, jwtBearerGrant, tokenExchangeForIdJag, type LoginStep } from './flow.js';
import type { AuthFetch } from './http.js';
import { maskUrl } from './mask.js';
import type { OAuthProviderOptions } from './provider.js';
import { chooseAuthMethod, obtainClient } from './registration.js';
import type { StoredClient } from './store.js';

/** What a machine grant is given by its provider. */
export interface MachineGrantContext {
  as: AuthorizationServerInfo;
  prm: ProtectedResource;
  /** The scopes chosen for this login (undefined: no `scope` parameter). */
  scopes: string[] | undefined;
  /** The provider's settings: the pre-registered client, the assertion file, the enterprise IdP. */
  options: Pick<OAuthProviderOptions, 'client' | 'assertionFile' | 'enterprise' | 'softwareVersion'>;
  /** The client in the store, if any. */
  stored: StoredClient | undefined;
  fetch: AuthFetch;
  /** Clock in ms since epoch (assertion expiry). */
  now: () => number;
  /** This login's DPoP key, when its tokens are to be bound. */
  dpop: DpopKey | undefined;
  /** Reports a finished step. */
  step: (s: LoginStep) => void;
  /** Names the step under way (a failure is reported against it). */
  begin: (step: string) => void;
  /** Called just before the token request goes out (the provider counts its logins). */
  sending: () => void;
}

/** What a machine grant obtained. */
export interface MachineGrantResult {
  client: StoredClient;
  response: oauth.TokenEndpointResponse;
}

type MachineGrant = (cx: MachineGrantContext) => Promise<MachineGrantResult>;

/** A pre-registered client (with its secret or key), reported as the registration step. */
async function preRegistered(cx: MachineGrantContext, as: AuthorizationServerInfo): Promise<StoredClient> {
  const s = cx.options.client ?? {};
  cx.begin('registration');
  const client = await obtainClient(as, { settings: s, stored: cx.stored, redirectUri: '', fetch: cx.fetch, softwareVersion: cx.options.softwareVersion });
  cx.step({
    step: 'registration',
    status: 'ok',
    summary: `pre-registered client ${sanitizeLine(client.clientId)} (given with --client-id), authenticating with ${client.tokenEndpointAuthMethod}`,
    evidence: {
      client_id: client.clientId,
      source: client.source,
      token_endpoint_auth_method: client.tokenEndpointAuthMethod,
      key_file: client.keyFile ?? null,
    },
  });
  return client;
}

/** Reports the token request about to be sent, and begins the token-response step. */
function tokenRequestStep(cx: MachineGrantContext, grant: string, client: StoredClient): void {
  cx.step({
    step: 'token-request',
    status: 'ok',
    summary: `${grant} grant at ${maskUrl(cx.as.metadata.token_endpoint ?? '')}${cx.dpop ? ' with a DPoP proof' : ''}`,
    evidence: {
      token_endpoint: cx.as.metadata.token_endpoint ?? null,
      grant_type: grant,
      client_id: client.clientId,
      client_auth: client.tokenEndpointAuthMethod,
      dpop: !!cx.dpop,
    },
  });
  cx.begin('token-response');
  cx.sending();
}

/** Client credentials (RFC 6749 §4.4): a pre-registered client with its secret or private key. Rejects with AuthError. */
const clientCredentials: MachineGrant = async (cx) => {
  const s = cx.options.client;
  if (!s?.clientId || (!s.clientSecret && !s.keyFile))
    throw new AuthError('MCPI_AUTH_NO_CLIENT', 'the client credentials grant needs a pre-registered client id and its secret or private key');
  const client = await preRegistered(cx, cx.as);
  tokenRequestStep(cx, 'client_credentials', client);
  return { client, response: await clientCredentialsGrant(cx.as, client, cx.prm.resource, cx.scopes, cx.fetch, cx.dpop) };
};

/** Workload identity (RFC 7523 §2.1): the platform's JWT, checked, then sent once. Rejects with AuthError (MCPI_AUTH_ASSERTION names the claim). */
const jwtBearer: MachineGrant = async (cx) => {
  const s = cx.options.client;
  const file = cx.options.assertionFile;
  if (!s?.clientId || !file) throw new AuthError('MCPI_AUTH_NO_CLIENT', 'the JWT bearer grant needs --client-id and --assertion');
  const client = await preRegistered(cx, cx.as);
  cx.begin('assertion');
  const assertion = await readJwtFile(file, 'assertion');
  checkAssertion(assertion, { what: `assertion in ${file}`, issuer: cx.as.issuer, tokenEndpoint: cx.as.metadata.token_endpoint, nowMs: cx.now() });
  cx.step({
    step: 'assertion',
    status: 'ok',
    summary: `the assertion in ${file} is for this authorization server and not expired`,
    evidence: assertionEvidence(assertion),
  });
  tokenRequestStep(cx, JWT_BEARER_GRANT, client);
  return { client, response: await jwtBearerGrant(cx.as, client, assertion, cx.prm.resource, cx.scopes, cx.fetch, cx.dpop) };
};

/** Enterprise-managed authorization (SEP-990): ID token → ID-JAG at the IdP (RFC 8693), ID-JAG → access token here (RFC 7523). Rejects with AuthError. */
const enterprise: MachineGrant = async (cx) => {
  const e = cx.options.enterprise;
  const s = cx.options.client;
  const { as, prm } = cx;
  if (!e || !s?.clientId)
    throw new AuthError('MCPI_AUTH_NO_CLIENT', 'enterprise-managed authorization needs --idp-issuer, --idp-client-id, --id-token and --client-id');
  cx.begin('identity-provider-metadata');
  const idp = await discoverAuthorizationServer(cx.fetch, e.idpIssuer, false);
  cx.step({
    step: 'identity-provider-metadata',
    status: 'ok',
    summary: `enterprise identity provider ${sanitizeLine(idp.issuer)}: metadata from ${maskUrl(idp.metadataUrl)}`,
    evidence: {
      url: maskUrl(idp.metadataUrl),
      issuer: idp.issuer,
      token_endpoint: idp.metadata.token_endpoint ?? null,
      grant_types_supported: idp.metadata.grant_types_supported ?? null,
    },
  });
  cx.begin('token-exchange');
  const idToken = await readJwtFile(e.idTokenFile, 'ID token');
  const idpClient: StoredClient = {
    issuer: idp.issuer,
    clientId: e.idpClientId,
    clientSecret: e.idpClientSecret,
    tokenEndpointAuthMethod: chooseAuthMethod(idp.metadata.token_endpoint_auth_methods_supported, !!e.idpClientSecret),
    source: 'pre-registered',
  };
  const jag = await tokenExchangeForIdJag(idp, idpClient, idToken, { audience: as.issuer, resource: prm.resource, scopes: cx.scopes, fetch: cx.fetch });
  cx.step({
    step: 'token-exchange',
    status: 'ok',
    summary: `token exchange (RFC 8693) at ${maskUrl(idp.metadata.token_endpoint ?? '')}: the ID token for an ID-JAG for ${sanitizeLine(as.issuer)}`,
    evidence: { audience: as.issuer, resource: prm.resource, id_jag: assertionEvidence(jag) },
  });
  const client = await preRegistered(cx, as);
  cx.begin('assertion');
  checkAssertion(jag, { what: 'ID-JAG from the identity provider', issuer: as.issuer, tokenEndpoint: as.metadata.token_endpoint, nowMs: cx.now() });
  tokenRequestStep(cx, JWT_BEARER_GRANT, client);
  return { client, response: await jwtBearerGrant(as, client, jag, prm.resource, cx.scopes, cx.fetch, cx.dpop) };
};

/** The machine grants by name (the provider's `grant` option). */
export const MACHINE_GRANTS: Record<'client_credentials' | 'jwt_bearer' | 'enterprise', MachineGrant> = {
  client_credentials: clientCredentials,
  jwt_bearer: jwtBearer,
  enterprise,
};
