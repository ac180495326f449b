/** Reading fields of parsed JSON a source does not control, without trusting its shape. */

export type JsonObject = Readonly<Record<string, unknown>>;

/** `value` when it is a JSON object (not an array, not null), else undefined. */
export function asObject(value: unknown): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

/** `value` when it is a string, else undefined. */
export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The JSON object `text` holds, or undefined when it is not JSON or not an object. */
export function parseJsonObject(text: unknown): JsonObject | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    return asObject(JSON.parse(text));
  } catch {
    return undefined;
  }
}
