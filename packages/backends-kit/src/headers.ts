/**
 * Response headers as backends meet them: a fetch `Headers` object, or a plain record such as
 * Node's `IncomingHttpHeaders` or an SDK's header map. Both are read case-insensitively, because
 * HTTP header names are case-insensitive and SDKs do not agree on a spelling.
 */
export type HeaderSource = { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | number | undefined>>;

/** The value of header `name`, or undefined; a repeated header yields its first value. */
export function readHeader(headers: HeaderSource | undefined, name: string): string | undefined {
  if (headers === undefined || headers === null) return undefined;
  if (typeof (headers as { get?: unknown }).get === 'function') {
    const value = (headers as { get(name: string): string | null }).get(name);
    return value ?? undefined;
  }
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() !== wanted || value === undefined || value === null) continue;
    if (Array.isArray(value)) return value.length > 0 ? String(value[0]) : undefined;
    return String(value);
  }
  return undefined;
}
