import type { z } from 'zod';
import type {
  agentRunRequestSchema,
  agentRunResultSchema,
  callWarningSchema,
  generateRequestSchema,
  generateResultSchema,
  modelCapabilitiesSchema,
  AgentRunRequest,
  AgentRunResult,
  CallWarning,
  GenerateRequest,
  GenerateResult,
  ModelCapabilities,
  Usage,
} from '../src/index';

/**
 * Where the contract states a shape twice — a zod schema for validation and a TypeScript
 * interface for readers of the code — the two must describe the same thing. These assertions are
 * checked by the type check (`pnpm lint`): a field added to one and not the other fails it.
 */
// The identity test of two types: optional fields, readonly and `undefined` all count.
type Exactly<Left, Right> = (<Probe>() => Probe extends Left ? 1 : 2) extends <Probe>() => Probe extends Right ? 1 : 2 ? true : false;
/** Object types written differently (an intersection, an interface) compared field by field. */
type Flat<Value> = Value extends object ? { [Key in keyof Value]: Flat<Value[Key]> } : Value;
function agree<Check extends true>(): Check | undefined {
  return undefined;
}

// `purpose` is an open string in the schema and an autocompleting union in the interface; the
// signal is a custom check in the schema. Both reduce to the same values.
type RequestData = Omit<GenerateRequest, 'purpose' | 'signal'> & { purpose: string; signal?: AbortSignal | undefined };
type RunRequestData = Omit<AgentRunRequest, 'purpose' | 'signal'> & { purpose: string; signal?: AbortSignal | undefined };

describe('schemas and interfaces', () => {
  it('describe the same shapes (checked at compile time)', () => {
    agree<Exactly<Flat<z.infer<typeof callWarningSchema>>, Flat<CallWarning>>>();
    agree<Exactly<Flat<z.infer<typeof modelCapabilitiesSchema>>, Flat<ModelCapabilities>>>();
    agree<Exactly<Flat<z.infer<typeof generateResultSchema>>, Flat<GenerateResult>>>();
    agree<Exactly<Flat<z.infer<typeof agentRunResultSchema>>, Flat<AgentRunResult>>>();
    agree<Exactly<Flat<z.infer<typeof generateRequestSchema>>, Flat<RequestData>>>();
    agree<Exactly<Flat<z.infer<typeof agentRunRequestSchema>>, Flat<RunRequestData>>>();
    // A deliberate mismatch is caught: the check itself works.
    // @ts-expect-error a missing field is not the same shape
    agree<Exactly<Flat<Omit<Usage, 'estimated'>>, Flat<Usage>>>();
    expect(true).toBe(true);
  });
});
