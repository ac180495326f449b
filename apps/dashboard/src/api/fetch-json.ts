/** A GET of the API as JSON; a failure throws an Error whose message is the API's own (`{error: {code, message}}`). */
export async function fetchJson<Body>(path: string, signal?: AbortSignal): Promise<Body> {
  const response = await fetch(path, { headers: { accept: 'application/json' }, ...(signal === undefined ? {} : { signal }) });
  const text = await response.text();
  const body = parseJson(text);
  if (!response.ok) throw new Error(apiErrorMessage(body) ?? `the dashboard's server answered ${response.status} ${response.statusText}`.trim());
  if (body === undefined) throw new Error(`the dashboard's server answered ${path} with something that is not JSON`);
  return body as Body;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function apiErrorMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const error = (body as { error: unknown }).error;
  if (typeof error !== 'object' || error === null || !('message' in error)) return undefined;
  const message = (error as { message: unknown }).message;
  return typeof message === 'string' ? message : undefined;
}
