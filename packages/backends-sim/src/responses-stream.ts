import type { ServerResponse } from 'node:http';

/** One output item of a Responses API response, as the route builds it. */
export type ResponseOutputItem =
  | {
      id: string;
      type: 'message';
      status: 'completed';
      role: 'assistant';
      content: Array<{ type: 'output_text'; text: string; annotations: never[]; logprobs: never[] }>;
    }
  | { id: string; type: 'function_call'; status: 'completed'; call_id: string; name: string; arguments: string };

/** The response object before its output, as `response.created` announces it. */
export type ResponseEnvelope = Record<string, unknown> & { output: ResponseOutputItem[] };

const DELTA_CHARACTERS = 24;

/**
 * A response as the Responses API streams it: named server-sent events, each with its `type` and
 * an increasing `sequence_number` — created, in progress, per output item (added, its text or
 * arguments in deltas, done), then `response.completed` carrying the whole response with usage.
 */
export function streamResponse(response: ServerResponse, completed: ResponseEnvelope): void {
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  let sequenceNumber = 0;
  const send = (type: string, data: Record<string, unknown>): void => {
    response.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequenceNumber, ...data })}\n\n`);
    sequenceNumber += 1;
  };
  const inProgress = { ...completed, status: 'in_progress', output: [], usage: null };
  send('response.created', { response: inProgress });
  send('response.in_progress', { response: inProgress });
  completed.output.forEach((item, outputIndex) => {
    if (item.type === 'message') {
      send('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } });
      item.content.forEach((part, contentIndex) => {
        const at = { item_id: item.id, output_index: outputIndex, content_index: contentIndex };
        send('response.content_part.added', { ...at, part: { ...part, text: '' } });
        for (let start = 0; start < part.text.length; start += DELTA_CHARACTERS)
          send('response.output_text.delta', { ...at, delta: part.text.slice(start, start + DELTA_CHARACTERS), logprobs: [] });
        send('response.output_text.done', { ...at, text: part.text, logprobs: [] });
        send('response.content_part.done', { ...at, part });
      });
    } else {
      send('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', arguments: '' } });
      send('response.function_call_arguments.delta', { item_id: item.id, output_index: outputIndex, delta: item.arguments });
      send('response.function_call_arguments.done', { item_id: item.id, output_index: outputIndex, name: item.name, arguments: item.arguments });
    }
    send('response.output_item.done', { output_index: outputIndex, item });
  });
  send(completed.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: completed });
  response.end();
}
