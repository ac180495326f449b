import type { ModelExchange } from './loopback-model';

type Json = Record<string, unknown>;

/** The JSON payloads of a response: each `data:` line of an event stream, else the whole body. */
function payloadsOf(responseText: string): Json[] {
  const dataLines = responseText
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice('data:'.length).trim())
    .filter((data) => data !== '' && data !== '[DONE]');
  const texts = dataLines.length > 0 ? dataLines : [responseText];
  return texts.flatMap((text) => {
    try {
      return [JSON.parse(text) as Json];
    } catch {
      return [];
    }
  });
}

/** The text a payload adds, on each of the three wires, streamed or not. */
function textOf(payload: Json): string {
  // Anthropic Messages: a streamed text delta, or a whole message.
  const delta = payload.delta as Json | undefined;
  if (payload.type === 'content_block_delta' && delta?.type === 'text_delta') return String(delta.text ?? '');
  if (payload.type === 'message' && Array.isArray(payload.content))
    return (payload.content as Json[]).map((block) => (block.type === 'text' ? String(block.text ?? '') : '')).join('');
  // OpenAI Responses: a streamed text delta, or a whole response.
  if (payload.type === 'response.output_text.delta') return String(payload.delta ?? '');
  if (payload.object === 'response' && Array.isArray(payload.output))
    return (payload.output as Json[])
      .flatMap((item) => (Array.isArray(item.content) ? (item.content as Json[]) : []))
      .map((part) => (part.type === 'output_text' ? String(part.text ?? '') : ''))
      .join('');
  // OpenAI Chat Completions: chunks or a whole completion.
  if (Array.isArray(payload.choices))
    return (payload.choices as Json[])
      .map((choice) => {
        const content = (choice.delta as Json | undefined)?.content ?? (choice.message as Json | undefined)?.content;
        return typeof content === 'string' ? content : '';
      })
      .join('');
  return '';
}

/** The text the simulator answered in one exchange, whichever wire it was on. */
export function answerTextOf(exchange: ModelExchange): string {
  return payloadsOf(exchange.responseText).map(textOf).join('');
}

/** The `<answer>…</answer>` part of a text, which every simulated target answer ends with. */
export function answerTagOf(text: string): string | undefined {
  return /<answer>[\s\S]*?<\/answer>/.exec(text)?.[0];
}
