import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isLoopbackHost } from '../serving/loopback-host.js';
import { ApiError } from './http-responses.js';

/** The cookie a browser keeps the token in after the first page load with `?token=`. */
const TOKEN_COOKIE = 'skillopt_dashboard_token';

export interface AccessPolicy {
  /** On a loopback bind, the port a request's Host header must name (with a loopback host): DNS rebinding is refused. */
  loopbackPort?: number;
  /** On any other bind, the token every request must carry. */
  token?: string;
}

export type AccessDecision =
  | { kind: 'allowed' }
  | { kind: 'refused'; error: ApiError }
  /** The right `?token=`: set the cookie and send the browser to the same URL without the token. */
  | { kind: 'token-accepted'; location: string; setCookie: string };

/** Whether a request may be answered, before its method or route is looked at. */
export function decideAccess(request: IncomingMessage, url: URL, policy: AccessPolicy): AccessDecision {
  if (policy.loopbackPort !== undefined && !isLoopbackHostHeader(request.headers.host, policy.loopbackPort))
    return {
      kind: 'refused',
      error: new ApiError(403, 'host-refused', `this dashboard answers requests for 127.0.0.1, ::1 or localhost port ${policy.loopbackPort} only`),
    };
  if (policy.token === undefined) return { kind: 'allowed' };
  const offered = url.searchParams.get('token');
  if (offered !== null) {
    if (!sameSecret(offered, policy.token)) return { kind: 'refused', error: tokenRequired('the token in the URL is not this dashboard’s') };
    const rest = new URLSearchParams(url.searchParams);
    rest.delete('token');
    const query = rest.toString();
    return {
      kind: 'token-accepted',
      location: `${url.pathname}${query === '' ? '' : `?${query}`}`,
      setCookie: `${TOKEN_COOKIE}=${encodeURIComponent(policy.token)}; HttpOnly; SameSite=Strict; Path=/`,
    };
  }
  const cookie = cookieValue(request.headers.cookie, TOKEN_COOKIE);
  const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim();
  if ((cookie !== undefined && sameSecret(cookie, policy.token)) || (bearer !== undefined && sameSecret(bearer, policy.token))) return { kind: 'allowed' };
  return { kind: 'refused', error: tokenRequired('this dashboard needs its token') };
}

function tokenRequired(why: string): ApiError {
  return new ApiError(
    401,
    'token-required',
    `${why}: open the URL \`skillopt dashboard\` printed (the one with ?token=), or send Authorization: Bearer <token>`,
  );
}

function isLoopbackHostHeader(host: string | undefined, port: number): boolean {
  // Only `host[:port]`: a path, user info or space would make the URL parser read another host.
  if (host === undefined || /[/@?#\\\s]/.test(host)) return false;
  let parsed: URL;
  try {
    parsed = new URL(`http://${host}`);
  } catch {
    return false;
  }
  return isLoopbackHost(parsed.hostname) && Number(parsed.port === '' ? 80 : parsed.port) === port;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const separator = pair.indexOf('=');
    if (separator === -1 || pair.slice(0, separator).trim() !== name) continue;
    try {
      return decodeURIComponent(pair.slice(separator + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Compared in constant time (of digests, so the length does not leak either). */
function sameSecret(offered: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(offered), digest(expected));
}
