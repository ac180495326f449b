import { z } from 'zod';

/**
 * The reader's twin of a producer's schema. Producers validate strictly: an unknown field or an
 * unknown word is a bug in the producer. A reader must keep working when a newer producer adds
 * something (docs/contract.md, "Evolution"), so its schema is the same one with every object made
 * loose — unknown fields are kept, not dropped — and every enum opened to any string, since a
 * newer producer may use a word this copy of the contract does not know yet. Literals stay
 * literal: they are what a union is discriminated on.
 *
 * The result keeps the producer's output type: the fields it knows are typed, the extra ones are
 * there at run time for whoever passes the record on (a reader that rewrites a file keeps them).
 */
export function tolerantSchema<Schema extends z.ZodType>(schema: Schema): z.ZodType<z.output<Schema>, z.input<Schema>> {
  return loosen(schema) as unknown as z.ZodType<z.output<Schema>, z.input<Schema>>;
}

function loosen(schema: z.ZodType): z.ZodType {
  const definition = (schema as unknown as { _zod: { def: z.core.$ZodTypeDef } })._zod.def;
  switch (definition.type) {
    case 'object': {
      const objectDefinition = definition as z.core.$ZodObjectDef;
      const shape: Record<string, z.ZodType> = {};
      for (const [key, field] of Object.entries(objectDefinition.shape)) shape[key] = loosen(field as z.ZodType);
      return z.looseObject(shape);
    }
    case 'array':
      return z.array(loosen((definition as z.core.$ZodArrayDef).element as z.ZodType));
    case 'optional':
      return loosen((definition as z.core.$ZodOptionalDef).innerType as z.ZodType).optional();
    case 'nullable':
      return loosen((definition as z.core.$ZodNullableDef).innerType as z.ZodType).nullable();
    case 'default': {
      const defaultDefinition = definition as z.core.$ZodDefaultDef;
      return loosen(defaultDefinition.innerType as z.ZodType).default(defaultDefinition.defaultValue as never);
    }
    case 'union': {
      const unionDefinition = definition as z.core.$ZodDiscriminatedUnionDef;
      const options = unionDefinition.options.map((option) => loosen(option as z.ZodType));
      if (typeof unionDefinition.discriminator === 'string')
        return z.discriminatedUnion(unionDefinition.discriminator, options as unknown as [z.ZodObject, ...z.ZodObject[]]);
      return z.union(options as unknown as [z.ZodType, ...z.ZodType[]]);
    }
    case 'record': {
      const recordDefinition = definition as z.core.$ZodRecordDef;
      return z.record(recordDefinition.keyType as z.ZodString, loosen(recordDefinition.valueType as z.ZodType));
    }
    case 'enum':
      return z.string();
    default:
      // Scalars, literals, custom checks and pipes are kept as they are.
      return schema;
  }
}
