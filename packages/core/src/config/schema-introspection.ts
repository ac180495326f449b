/**
 * Reading a schema's structure (its keys, the schema of one key, an enum's choices) for
 * suggestions and documentation. Package schemas reach core only as `{safeParse}` (contract
 * ConfigSchema) and may come from another copy or major version of zod, so this duck-types both
 * zod 4 (`_zod.def`) and zod 3 (`_def`) instead of using zod's classes; an unrecognised schema
 * simply has no known keys.
 */

interface SchemaDefinition {
  type?: string;
  typeName?: string;
  innerType?: unknown;
  schema?: unknown;
  in?: unknown;
  out?: unknown;
  shape?: unknown;
  valueType?: unknown;
  /** A zod 4 array's item schema. */
  element?: unknown;
  entries?: Record<string, unknown>;
  values?: unknown;
  defaultValue?: unknown;
}

function definitionOf(schema: unknown): SchemaDefinition | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const internals = (schema as { _zod?: { def?: SchemaDefinition } })._zod;
  if (internals?.def) return internals.def;
  return (schema as { _def?: SchemaDefinition })._def;
}

function kindOf(definition: SchemaDefinition): string {
  // zod 4 says `type: 'object'`; zod 3 says `typeName: 'ZodObject'`.
  if (definition.type) return definition.type;
  return (definition.typeName ?? '').replace(/^Zod/, '').toLowerCase();
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional', 'branded', 'lazy']);

/** The schema under optional/default/preprocess/transform wrappers: the one that has the structure. */
export function unwrapSchema(schema: unknown): unknown {
  let current = schema;
  for (let depth = 0; depth < 32; depth += 1) {
    const definition = definitionOf(current);
    if (!definition) return current;
    const kind = kindOf(definition);
    if (WRAPPERS.has(kind) && definition.innerType !== undefined) current = definition.innerType;
    else if (kind === 'pipe') {
      // A preprocess is a pipe from a transform to the real schema; a transform after a schema is
      // a pipe from the real schema to the transform.
      const input = definitionOf(definition.in);
      current = input && kindOf(input) === 'transform' ? definition.out : definition.in;
    } else if (kind === 'effects' && definition.schema !== undefined) current = definition.schema;
    else return current;
  }
  return current;
}

function shapeOf(schema: unknown): Record<string, unknown> | undefined {
  const inner = unwrapSchema(schema);
  const direct = (inner as { shape?: unknown } | undefined)?.shape;
  const shape = typeof direct === 'function' ? (direct as () => unknown)() : (direct ?? definitionOf(inner)?.shape);
  const resolved = typeof shape === 'function' ? (shape as () => unknown)() : shape;
  return typeof resolved === 'object' && resolved !== null ? (resolved as Record<string, unknown>) : undefined;
}

/** The keys an object schema knows, or undefined when it is not (recognisably) an object schema. */
export function schemaKeys(schema: unknown): string[] | undefined {
  const shape = shapeOf(schema);
  return shape ? Object.keys(shape) : undefined;
}

/** The schema of `key` inside an object schema, or of any key inside a record schema. */
function childSchema(schema: unknown, key: string): unknown {
  const shape = shapeOf(schema);
  if (shape) return shape[key];
  const definition = definitionOf(unwrapSchema(schema));
  if (definition && kindOf(definition) === 'record') return definition.valueType;
  // A list's items, so an unknown key inside one (`prices.overrides[0].…`) gets its suggestion too.
  if (definition && kindOf(definition) === 'array' && /^\d+$/.test(key)) return definition.element;
  return undefined;
}

/** The schema at a dotted path, or undefined where the structure is unknown. */
export function schemaAtPath(schema: unknown, path: readonly string[]): unknown {
  let current = schema;
  for (const key of path) {
    current = childSchema(current, key);
    if (current === undefined) return undefined;
  }
  return current;
}

/** The choices of an enum schema. */
export function enumChoices(schema: unknown): string[] | undefined {
  const definition = definitionOf(unwrapSchema(schema));
  if (!definition || kindOf(definition) !== 'enum') return undefined;
  const values = definition.entries ? Object.values(definition.entries) : definition.values;
  return Array.isArray(values) ? values.filter((value): value is string => typeof value === 'string') : undefined;
}

/** The `.describe()` text of a schema or of the first wrapper that has one. */
export function schemaDescription(schema: unknown): string | undefined {
  let current = schema;
  for (let depth = 0; depth < 32 && current !== undefined; depth += 1) {
    const description = (current as { description?: unknown }).description;
    if (typeof description === 'string') return description;
    const definition = definitionOf(current);
    if (!definition) return undefined;
    const kind = kindOf(definition);
    if (WRAPPERS.has(kind)) current = definition.innerType;
    else if (kind === 'pipe') current = definition.out;
    else return undefined;
  }
  return undefined;
}

/** The default of a key, when its schema declares one (outermost default wins). */
export function schemaDefault(schema: unknown): { value: unknown } | undefined {
  let current = schema;
  for (let depth = 0; depth < 32 && current !== undefined; depth += 1) {
    const definition = definitionOf(current);
    if (!definition) return undefined;
    const kind = kindOf(definition);
    if (kind === 'default' || kind === 'prefault') {
      const raw = definition.defaultValue;
      return { value: typeof raw === 'function' ? (raw as () => unknown)() : raw };
    }
    if (WRAPPERS.has(kind)) current = definition.innerType;
    else return undefined;
  }
  return undefined;
}
