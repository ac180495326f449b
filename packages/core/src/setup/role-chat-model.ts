import { type Backend, type ChatModel, ERROR_CODES, type ModelRole, SkillOptError } from '@skillopt/contract';

/** The chat model a backend makes for a role, or an error naming the config key to change. */
export function roleChatModel(backend: Backend, backendName: string, role: ModelRole, modelId: string | undefined): ChatModel {
  if (!backend.createChatModel)
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `the backend "${backendName}" has no chat models, so it cannot be the ${role}; choose another model.${role}_backend`,
    });
  return backend.createChatModel({ role, ...(modelId ? { modelId } : {}) });
}
