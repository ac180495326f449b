/**
 * Removes what real models wrap around a JSON reply before it is scanned: reasoning blocks
 * (`<think>…</think>`, `<thinking>…</thinking>`), whose braces would otherwise look like JSON, and
 * markdown fence lines (```` ```json ```` / ```` ``` ````). A fence line can never be inside a JSON
 * string (JSON strings hold no raw line breaks), so dropping those lines never changes a value.
 */
export function stripReasoningAndFences(text: string): string {
  const withoutReasoning = text.replace(/<(think|thinking|reasoning)>[\s\S]*?<\/\1>/gi, '');
  return withoutReasoning.replace(/^[ \t]*```[\w-]*[ \t]*$/gm, '');
}
