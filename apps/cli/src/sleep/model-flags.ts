import { Flags } from '@oclif/core';

/** The original's `--backend` and `--model`, on every Sleep command that calls a model. */
export const MODEL_FLAGS = {
  backend: Flags.string({
    description: 'one backend for the target and the optimizer, its package installed beside (default sim, the simulated model), e.g. claude-code or openai',
  }),
  model: Flags.string({ description: "that backend's model for both roles (default: the backend's own)" }),
};
