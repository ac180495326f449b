/** The models a starter project can train with: `skillopt init --backend <name>`. */
export const STARTER_BACKEND_NAMES = ['sim', 'openai', 'anthropic'] as const;
export type StarterBackendName = (typeof STARTER_BACKEND_NAMES)[number];

export interface StarterBackend {
  /** The backend id of the config's model.target_backend and model.optimizer_backend. */
  id: StarterBackendName;
  /** The model that answers the questions, and the one that reflects on the answers and edits the skill. */
  target: string;
  optimizer: string;
  /** The package to install beside the CLI; absent for the simulated model, which the CLI brings. */
  packageName?: string;
  /** The environment variable the backend reads its key from; absent when none is needed. */
  keyVariable?: string;
}

export const STARTER_BACKENDS: Readonly<Record<StarterBackendName, StarterBackend>> = {
  sim: { id: 'sim', target: 'sim-target', optimizer: 'sim-optimizer' },
  openai: { id: 'openai', target: 'gpt-4.1-mini', optimizer: 'gpt-5', packageName: '@skillopt/backends-openai', keyVariable: 'OPENAI_API_KEY' },
  anthropic: {
    id: 'anthropic',
    target: 'claude-haiku-4-5',
    optimizer: 'claude-sonnet-4-6',
    packageName: '@skillopt/backends-anthropic',
    keyVariable: 'ANTHROPIC_API_KEY',
  },
};
