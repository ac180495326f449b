/**
 * Prompts that are not a request to the agent: slash commands, tool-generated wrappers, pasted
 * blobs. They are dropped from a session's turns (and never become its task).
 */
export function isMetaPrompt(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed.length === 0) return true;
  if (trimmed.startsWith('<') && trimmed.endsWith('>')) return true;
  if (trimmed.startsWith('/') && trimmed.split(/\s+/).length <= 3) return true;
  if (trimmed.startsWith('[Pasted text') || trimmed.startsWith('Caveat:') || trimmed.startsWith('# /')) return true;
  const head = trimmed.slice(0, 200);
  return head.includes('<command-message>') || head.includes('<command-name>');
}
