/** `text` as a TOML basic string, for the values of Codex's `-c key=value` overrides. */
export function tomlString(text: string): string {
  return JSON.stringify(text);
}
