import { messageText, redactSecretText, type GenerateRequest } from '@skillopt/contract';
import type { AnswerFormat } from './handoff-folder.js';

/** What the answer must be, from the request's response format. */
export function answerFormatOf(request: GenerateRequest): AnswerFormat {
  const format = request.responseFormat;
  if (format?.type !== 'json') return { type: 'text' };
  return format.schema === undefined ? { type: 'json' } : { type: 'json', schema: format.schema as Record<string, unknown> };
}

/**
 * The prompt a person or an agent reads: what to do, where the answer goes and in what form, then
 * every message of the request under its role. Images are named, not shown; secrets are cut out.
 */
export function renderRequestPrompt(request: GenerateRequest, header: { id: string; role: string; answerFile: string }): string {
  const format = answerFormatOf(request);
  const formatLine =
    format.type === 'text'
      ? 'Answer format: text, as the model this request was written for would reply.'
      : `Answer format: one JSON value and nothing else${format.schema === undefined ? '.' : `, matching this JSON Schema:\n\n\`\`\`json\n${JSON.stringify(format.schema, null, 2)}\n\`\`\``}`;
  const messages = request.messages.map((message) => {
    const images = typeof message.content === 'string' ? 0 : message.content.filter((part) => part.type === 'image').length;
    const note = images === 0 ? '' : `\n\n(${images} image${images === 1 ? '' : 's'} in this message, not shown here: see the request file)`;
    return `## ${message.role}\n\n${messageText(message)}${note}`;
  });
  const text = [
    `# Request ${header.id} (role ${header.role}, purpose ${request.purpose})`,
    '',
    `Answer it in a fresh context, as the model it was written for, and write only the answer to \`${header.answerFile}\` in this folder.`,
    formatLine,
    ...(request.tools === undefined || request.tools.length === 0 ? [] : ['It offers tools; the answer is text only: no tool is called.']),
    '',
    ...messages,
    '',
  ].join('\n');
  return redactSecretText(text);
}
