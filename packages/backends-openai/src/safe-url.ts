/**
 * A URL as it may appear in a message, an error or provider metadata: without user name,
 * password, query or fragment, which is where credentials hide in URLs
 * (`http://user:key@host/v1?api-key=…`).
 */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    return '(an unreadable URL)';
  }
}

/** A base URL without trailing slashes, as the SDK joins paths to it. */
export function trimTrailingSlashes(url: string): string {
  return url.replace(/\/+$/, '');
}

/** The host of a URL, lower-cased, or '' when it is unreadable. */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}
