import {
  ERROR_CODES,
  SkillOptError,
  isAgentRunner,
  isChatModel,
  isEnvironment,
  missingCapabilities,
  type AgentRunner,
  type Backend,
  type ChatModel,
  type ContractInterface,
  type Environment,
  type Target,
} from '@skillopt/contract';

/**
 * Core's side of the contract's evolution (docs/contract.md, "Evolution"): every implementation
 * it is handed declares the specification version of its interface, and core turns each version
 * it knows into the current interface — itself, for the current version; an adapter, for an older
 * one still supported — and refuses any other with an error that names the version. A v2 of one
 * interface then ships as one more entry in its table, beside v1.
 */
type Adapters<Current> = Readonly<Record<string, (value: object) => Current>>;

const CHAT_MODEL_ADAPTERS: Adapters<ChatModel> = { v1: (value) => value as ChatModel };
const AGENT_RUNNER_ADAPTERS: Adapters<AgentRunner> = { v1: (value) => value as AgentRunner };
const ENVIRONMENT_ADAPTERS: Adapters<Environment> = { v1: (value) => value as Environment };
const BACKEND_ADAPTERS: Adapters<Backend> = { v1: (value) => value as Backend };

const INTERFACE_NAMES: Record<ContractInterface, string> = {
  'chat-model': 'chat model',
  'agent-runner': 'agent runner',
  environment: 'environment',
  backend: 'backend',
  'package-manifest': 'package manifest',
};

function accept<Current>(
  contractInterface: ContractInterface,
  adapters: Adapters<Current>,
  value: unknown,
  origin: string,
  isCurrent: (adapted: Current) => boolean,
): Current {
  const name = INTERFACE_NAMES[contractInterface];
  if (typeof value !== 'object' || value === null)
    throw new SkillOptError({
      code: ERROR_CODES.packageInvalid,
      category: 'user',
      message: `${origin} gave no ${name} (got ${value === null ? 'null' : typeof value})`,
    });
  const version = (value as { specificationVersion?: unknown }).specificationVersion;
  const adapt = typeof version === 'string' && Object.hasOwn(adapters, version) ? adapters[version] : undefined;
  if (adapt === undefined)
    throw new SkillOptError({
      code: ERROR_CODES.specificationUnsupported,
      category: 'user',
      message:
        `${origin} is a ${name} of specification ${version === undefined ? '(none declared)' : JSON.stringify(version)}, ` +
        `and this release of SkillOpt accepts ${name}s of ${Object.keys(adapters).join(', ')}. ` +
        'Install a version of that package built for this release, or upgrade SkillOpt (npm install @skillopt/cli@latest).',
      details: { contractInterface, specificationVersion: version, accepted: Object.keys(adapters) },
    });
  const adapted = adapt(value);
  if (!isCurrent(adapted))
    throw new SkillOptError({
      code: ERROR_CODES.packageInvalid,
      category: 'user',
      message: `${origin} declares a ${name} of ${String(version)} but does not have its shape`,
    });
  return adapted;
}

export function acceptChatModel(value: unknown, origin: string): ChatModel {
  return accept('chat-model', CHAT_MODEL_ADAPTERS, value, origin, isChatModel);
}

export function acceptAgentRunner(value: unknown, origin: string): AgentRunner {
  return accept('agent-runner', AGENT_RUNNER_ADAPTERS, value, origin, isAgentRunner);
}

export function acceptEnvironment(value: unknown, origin: string): Environment {
  return accept('environment', ENVIRONMENT_ADAPTERS, value, origin, isEnvironment);
}

export function acceptBackend(value: unknown, origin: string): Backend {
  return accept('backend', BACKEND_ADAPTERS, value, origin, (backend) => typeof backend.id === 'string');
}

/** The target with its model or runner accepted (see acceptChatModel). */
export function acceptTarget(target: Target, origin: string): Target {
  return target.kind === 'chat'
    ? { kind: 'chat', model: acceptChatModel(target.model, origin) }
    : { kind: 'agent', runner: acceptAgentRunner(target.runner, origin) };
}

/**
 * Refuses, before anything runs, a target that declares it lacks what the env needs (DocVQA needs
 * images). A target that does not declare a capability is given the benefit of the doubt.
 */
export function checkTargetCapabilities(environment: Environment, target: Target): void {
  const required = environment.requiredCapabilities ?? [];
  const implementation = target.kind === 'chat' ? target.model : target.runner;
  const missing = missingCapabilities(required, implementation.capabilities);
  if (missing.length === 0) return;
  throw new SkillOptError({
    code: ERROR_CODES.configInvalid,
    category: 'user',
    message:
      `the env "${environment.id}" needs a target that can do ${required.join(', ')}, and ${implementation.provider}/${implementation.modelId} ` +
      `declares it cannot do ${missing.join(', ')}; choose another model.target or model.target_backend`,
    details: { environment: environment.id, missing },
  });
}
