import type { IncomingMessage } from 'node:http';

const OWNER = 'skillopt-sim (simulated model)';

/**
 * `GET …/models` and `GET …/models/<id>` in the shape the client speaks: Anthropic's
 * (`{data: [{type: 'model', id, display_name, created_at}], has_more, first_id, last_id}`) when the
 * request carries an `anthropic-version` header, as Anthropic's SDK always sends one, else OpenAI's
 * (`{object: 'list', data: [{id, object: 'model', created, owned_by}]}`). `undefined` for an id
 * the server does not serve.
 */
export function modelsListing(request: IncomingMessage, modelIds: readonly string[], created: number, oneId?: string): unknown {
  const anthropic = request.headers['anthropic-version'] !== undefined;
  const createdAt = new Date(created * 1000).toISOString();
  const describe = (id: string): Record<string, unknown> =>
    anthropic ? { type: 'model', id, display_name: `${id} (simulated model)`, created_at: createdAt } : { id, object: 'model', created, owned_by: OWNER };
  if (oneId !== undefined) return modelIds.includes(oneId) ? describe(oneId) : undefined;
  if (!anthropic) return { object: 'list', data: modelIds.map(describe) };
  return { data: modelIds.map(describe), has_more: false, first_id: modelIds[0] ?? null, last_id: modelIds[modelIds.length - 1] ?? null };
}
