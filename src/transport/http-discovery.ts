/**
 * @module
 * What an OAuth-capable client learns from this server when it has no token or a wrong one (issue 19):
 * that it takes a static token, so that the client neither registers itself nor opens a browser.
 *
 * MCP clients (the SDK's `auth()`, and so the Inspector and clients built on it; Claude Code follows
 * the same discovery) answer a 401 by reading the protected-resource metadata (RFC 9728) the
 * `WWW-Authenticate` challenge points at, then the authorization server's metadata (RFC 8414), and
 * register (RFC 7591) at `/register` when that metadata cannot be found. So this server says, in
 * those documents' own terms, exactly what it is:
 * - the protected-resource metadata names the `/mcp` resource, takes the token in the `Authorization`
 *   header, and names no authorization server, since none issues its token;
 * - the authorization-server metadata of this origin supports no response type, no grant type and no
 *   registration: a client reading it stops ("does not support dynamic client registration") instead
 *   of posting a registration. Its two required endpoints answer with an OAuth error that says where
 *   the token is;
 * - a registration posted anyway is refused the same way.
 * None of these documents is secret, so they are served without the token (the Host and Origin
 * checks still apply). The token itself is never in any of them.
 */

export interface DiscoveryAnswer {
  readonly status: number;
  readonly body: object;
  readonly headers: Record<string, string>;
}

const RESOURCE_METADATA = '/.well-known/oauth-protected-resource';
const TOKEN_HINT =
  'Noted MCP takes a static token, not OAuth: send it on every request as "Authorization: Bearer <token>" (or "X-MCP-Token: <token>"). The server keeps it in <vault>/.noted/mcp-http-token (or takes it from $NOTED_MCP_AUTH_TOKEN) and prints where when it starts; `noted-mcp config CLIENT --http` shows how each client sends it.';

/** The absolute URL of the resource's metadata, for the challenge (clients refuse relative ones). */
export function resourceMetadataUrl(origin: string): string {
  return `${origin}${RESOURCE_METADATA}/mcp`;
}

/** The `WWW-Authenticate` challenge of a 401 (RFC 6750 with RFC 9728's `resource_metadata`). */
export function bearerChallenge(origin: string, missing: boolean): string {
  const parts = ['Bearer realm="noted-mcp"', `resource_metadata="${resourceMetadataUrl(origin)}"`];
  // RFC 6750 3.1: no error code when no credentials were sent at all.
  if (!missing)
    parts.push('error="invalid_token"', 'error_description="The token is not this server\'s token."');
  return parts.join(', ');
}

/**
 * The answer to a discovery request, or null when `pathname` is none of them. `origin` is the
 * server's own, as the (checked) Host header names it.
 */
export function discoveryAnswer(pathname: string, method: string, origin: string): DiscoveryAnswer | null {
  const json = (status: number, body: object): DiscoveryAnswer => ({
    status,
    body,
    headers: { 'Cache-Control': 'no-store' },
  });
  if (pathname === RESOURCE_METADATA || pathname === `${RESOURCE_METADATA}/mcp`) {
    if (method !== 'GET') return null;
    return json(200, {
      resource: `${origin}/mcp`,
      bearer_methods_supported: ['header'],
      resource_name: 'Noted MCP (a static token; no OAuth authorization server issues it)',
    });
  }
  if (isAuthorizationServerMetadata(pathname)) {
    if (method !== 'GET') return null;
    return json(200, {
      issuer: origin,
      authorization_endpoint: `${origin}/oauth/authorize`,
      token_endpoint: `${origin}/oauth/token`,
      response_types_supported: [],
      grant_types_supported: [],
      token_endpoint_auth_methods_supported: [],
      scopes_supported: [],
    });
  }
  if (pathname === '/oauth/authorize')
    return json(400, { error: 'unsupported_response_type', error_description: TOKEN_HINT });
  if (pathname === '/oauth/token')
    return json(400, { error: 'unsupported_grant_type', error_description: TOKEN_HINT });
  if (pathname === '/register')
    return json(400, { error: 'invalid_client_metadata', error_description: TOKEN_HINT });
  return null;
}

/** RFC 8414's and OpenID Connect's metadata paths, at the root and with the resource's path. */
function isAuthorizationServerMetadata(pathname: string): boolean {
  return [
    '/.well-known/oauth-authorization-server',
    '/.well-known/oauth-authorization-server/mcp',
    '/.well-known/openid-configuration',
    '/.well-known/openid-configuration/mcp',
    '/mcp/.well-known/openid-configuration',
  ].includes(pathname);
}
