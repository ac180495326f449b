type Schema = Record<string, unknown>;

/** The answer inside the reply's last `<answer>…</answer>`, else the reply's last non-empty line. */
function bareAnswerOf(reply: string): string {
  const tagged = [...reply.matchAll(/<answer>([\s\S]*?)<\/answer>/gi)];
  const last = tagged[tagged.length - 1]?.[1];
  if (last !== undefined) return last.trim();
  return (
    reply
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .pop() ?? ''
  );
}

const ANSWER_PROPERTY = /answer/i;
const DEPTH_LIMIT = 8;

function typeOf(schema: Schema): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return (schema.type as unknown[]).find((type): type is string => typeof type === 'string' && type !== 'null');
  if (typeof schema.properties === 'object') return 'object';
  return undefined;
}

function valueFor(schema: Schema, name: string, reply: string, depth: number): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const answer = bareAnswerOf(reply).toLowerCase();
    return schema.enum.find((option) => String(option).toLowerCase() === answer) ?? schema.enum[0];
  }
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    const usable = alternatives.find((alternative) => typeOf(alternative) !== 'null') ?? alternatives[0];
    return valueFor(usable as Schema, name, reply, depth);
  }
  switch (typeOf(schema)) {
    case 'object':
      return depth >= DEPTH_LIMIT ? {} : objectFor(schema, reply, depth + 1);
    case 'array': {
      const minimum = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const items = typeof schema.items === 'object' && schema.items !== null ? (schema.items as Schema) : {};
      return Array.from({ length: minimum }, () => valueFor(items, name, reply, depth + 1));
    }
    case 'number':
    case 'integer': {
      const number = Number.parseFloat(bareAnswerOf(reply).replace(/,/g, ''));
      if (!Number.isFinite(number)) return typeof schema.minimum === 'number' ? schema.minimum : 0;
      return typeOf(schema) === 'integer' ? Math.round(number) : number;
    }
    case 'boolean':
      return /^(yes|true)$/i.test(bareAnswerOf(reply));
    case 'null':
      return null;
    default:
      return ANSWER_PROPERTY.test(name) ? bareAnswerOf(reply) : reply;
  }
}

function objectFor(schema: Schema, reply: string, depth: number): Record<string, unknown> {
  const properties = (typeof schema.properties === 'object' && schema.properties !== null ? schema.properties : {}) as Record<string, Schema>;
  const value: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) value[name] = valueFor(property ?? {}, name, reply, depth);
  return value;
}

/**
 * The reply as a value of the given JSON schema, as a model asked for structured output writes it:
 * a string property named like an answer (`final_answer`, `answer`) holds the bare answer (the
 * reply's last `<answer>` content), every other string the whole reply; numbers and booleans are
 * read from the answer; arrays get their minimum number of items; enums the option matching the
 * answer, else their first. Every property of an object is filled, required or not.
 */
export function schemaShapedValue(schema: Record<string, unknown>, reply: string): unknown {
  return valueFor(schema, 'response', reply, 0);
}
