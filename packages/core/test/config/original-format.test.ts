import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import {
  liftFlatLegacyKeys,
  translateOriginalConfig as translateWithoutPackages,
  validateConfig,
  type ConfigTree,
  type TranslateOriginalConfigOptions,
} from '../../src/config/index.js';
import { ORIGINAL_KEY_PREFIXES } from '../../src/config/original-format/original-key-names.js';
import { backendManifest, STUB_BACKEND_PACKAGES } from './stub-packages.js';

/** The translation with every stand-in backend package loaded, each translating its own slice. */
const translateOriginalConfig = (config: ConfigTree, options: TranslateOriginalConfigOptions = {}) =>
  translateWithoutPackages(config, { backendPackages: STUB_BACKEND_PACKAGES, ...options });

const codes = (warnings: ReadonlyArray<{ code: string }>) => warnings.map((warning) => warning.code);

describe('liftFlatLegacyKeys', () => {
  it("puts a flat legacy config's keys into sections, and benchmark knobs into env", () => {
    const lifted = liftFlatLegacyKeys({
      env: 'searchqa',
      optimizer_model: 'gpt-5.5',
      target_backend: 'qwen_chat',
      edit_budget: 3,
      min_edit_budget: 1,
      num_epochs: 2,
      use_gate: true,
      split_dir: 'data/searchqa_split',
      azure_endpoint: 'https://example.openai.azure.com',
      max_turns: 1,
      workers: 24,
    });
    expect(lifted.flatLegacy).toBe(true);
    expect(lifted.config).toEqual({
      env: { name: 'searchqa', split_dir: 'data/searchqa_split', max_turns: 1, workers: 24 },
      model: { optimizer: 'gpt-5.5', target_backend: 'qwen_chat', azure_openai_endpoint: 'https://example.openai.azure.com' },
      optimizer: { learning_rate: 3, min_learning_rate: 1 },
      train: { num_epochs: 2 },
      evaluation: { use_gate: true },
    });
    expect(lifted.moves).toContainEqual({ from: 'edit_budget', to: 'optimizer.learning_rate' });
  });

  it('lets the structured key win over its flat twin in the same layer, and leaves unknown keys of a structured layer alone', () => {
    const lifted = liftFlatLegacyKeys({ optimizer: { learning_rate: 5 }, edit_budget: 3, trian: { seed: 1 } });
    expect(lifted.flatLegacy).toBe(false);
    expect(lifted.config).toEqual({ optimizer: { learning_rate: 5 }, trian: { seed: 1 } });
  });
});

describe('translateOriginalConfig: backends', () => {
  it('leaves a config in our format alone', () => {
    const ours = {
      model: { target_backend: 'claude-code', optimizer_backend: 'anthropic', target: 'claude-sonnet-4-6' },
      backends: { 'claude-code': { path: 'claude' } },
      env: { name: 'searchqa', workers: 3 },
    };
    const translated = translateOriginalConfig(ours);
    expect(translated.originalFormat).toBe(false);
    expect(translated.config).toEqual(ours);
    expect(translated.warnings).toEqual([]);
  });

  it.each([
    ['openai_chat', { id: 'openai', preset: 'azure' }],
    ['azure_openai', { id: 'openai', preset: 'azure' }],
    ['openai_compatible', { id: 'openai' }],
    ['qwen_chat', { id: 'openai', preset: 'qwen' }],
    ['minimax_chat', { id: 'openai', preset: 'minimax' }],
    ['claude_code_exec', { id: 'claude-code' }],
    ['claude_chat', { id: 'claude-code', mode: 'chat' }],
    ['codex_exec', { id: 'codex' }],
    ['codex', { id: 'codex' }],
    ['cursor_exec', { id: 'cursor' }],
    ['copilot_exec', { id: 'copilot' }],
    ['copilot_chat', { id: 'copilot', mode: 'chat' }],
  ])('maps the backend name %s', (name, expected) => {
    const { config } = translateOriginalConfig({ model: { optimizer_backend: name, target_backend: name, target: 'm', optimizer: 'm' } });
    expect(config.model).toEqual({ optimizer_backend: expected.id, target_backend: expected.id, target: 'm', optimizer: 'm' });
    const section = (config.backends as Record<string, unknown> | undefined)?.[expected.id] ?? {};
    expect(section).toEqual({ ...('preset' in expected ? { preset: expected.preset } : {}), ...('mode' in expected ? { mode: expected.mode } : {}) });
  });

  it('moves the flat backend keys of model to backends.<id>, per-role variants to its role sub-section', () => {
    const { config, warnings, moves } = translateOriginalConfig({
      model: {
        optimizer_backend: 'openai_chat',
        target_backend: 'azure_openai',
        azure_openai_endpoint: 'https://shared.openai.azure.com',
        azure_openai_api_version: '2024-12-01-preview',
        target_azure_openai_endpoint: 'https://target.openai.azure.com',
        optimizer_azure_openai_managed_identity_client_id: 'abc',
        azure_openai_auth_mode: '',
      },
    });
    expect(config.model).toEqual({ optimizer_backend: 'openai', target_backend: 'openai' });
    expect(config.backends).toEqual({
      openai: {
        preset: 'azure',
        endpoint: 'https://shared.openai.azure.com',
        api_version: '2024-12-01-preview',
        target: { endpoint: 'https://target.openai.azure.com' },
        optimizer: { managed_identity_client_id: 'abc' },
      },
    });
    expect(warnings).toEqual([]);
    expect(moves).toContainEqual({ from: 'model.azure_openai_endpoint', to: 'backends.openai.endpoint', copy: true });
  });

  it('keeps settings per role when the two roles use the openai backend with different presets', () => {
    const { config } = translateOriginalConfig({
      model: {
        optimizer_backend: 'openai_chat',
        target_backend: 'qwen_chat',
        azure_openai_endpoint: 'https://x.openai.azure.com',
        qwen_chat_base_url: 'http://localhost:8000/v1',
        qwen_chat_thinking_mode: 'disabled',
      },
    });
    expect(config.backends).toEqual({
      openai: {
        optimizer: { preset: 'azure', endpoint: 'https://x.openai.azure.com' },
        target: { preset: 'qwen', base_url: 'http://localhost:8000/v1', thinking_mode: 'disabled' },
      },
    });
  });

  it("maps the exec CLIs' keys, including the Codex aliases and Copilot's per-role chat models", () => {
    const { config } = translateOriginalConfig({
      model: {
        optimizer_backend: 'copilot_chat',
        target_backend: 'codex_exec',
        codex_path: '/opt/codex',
        codex_exec_sandbox: 'read-only',
        copilot_chat_optimizer_model: 'gpt-5-mini',
        copilot_chat_timeout: 600,
      },
    });
    expect(config.backends).toEqual({
      copilot: { mode: 'chat', optimizer: { model: 'gpt-5-mini' }, timeout: 600 },
      codex: { path: '/opt/codex', sandbox: 'read-only' },
    });
  });

  it('drops the keys of backends no role uses, warning only about values the user changed', () => {
    const { config, warnings } = translateOriginalConfig({
      model: {
        optimizer_backend: 'openai_chat',
        target_backend: 'openai_chat',
        claude_code_exec_path: 'claude',
        claude_code_exec_effort: 'high',
        minimax_model: 'MiniMax-M3',
        cursor_exec_sandbox: 'disabled',
      },
    });
    expect(config.backends).toEqual({ openai: { preset: 'azure' } });
    expect(warnings).toEqual([
      {
        code: 'unused-backend-key',
        path: 'model.claude_code_exec_effort',
        message: 'model.claude_code_exec_effort: settings of claude_code_exec, which neither role uses here; ignored',
      },
      {
        code: 'unused-backend-key',
        path: 'model.cursor_exec_sandbox',
        message: 'model.cursor_exec_sandbox: settings of cursor_exec, which neither role uses here; ignored',
      },
    ]);
  });

  it("translates the retired model.backend label into the role keys, here with the original's meaning of openai", () => {
    const codex = translateOriginalConfig({ model: { backend: 'openai' } });
    expect(codex.config.model).toEqual({ optimizer_backend: 'codex', target_backend: 'codex' });
    expect(codes(codex.warnings)).toEqual(['backend-label-translated']);
    expect(codex.warnings[0]?.message).toBe(
      'model.backend (openai) is retired: translated into model.optimizer_backend: codex and model.target_backend: codex. Set model.optimizer_backend and model.target_backend instead',
    );

    const claudeTarget = translateOriginalConfig({ model: { backend: 'claude_code_exec', optimizer_backend: 'openai_chat' } });
    expect(claudeTarget.config.model).toEqual({ optimizer_backend: 'openai', target_backend: 'claude-code' });

    const quiet = translateOriginalConfig({ model: { backend: 'azure_openai', optimizer_backend: 'openai_chat', target_backend: 'openai_chat' } });
    expect(quiet.warnings).toEqual([]);
  });

  it('warns that the bare openai and anthropic mean the APIs here, in a config written for the original', () => {
    const { config, warnings } = translateOriginalConfig({
      model: { optimizer_backend: 'anthropic', target_backend: 'openai', azure_openai_endpoint: '' },
      train: { steps_per_epoch: 3 },
    });
    expect(config.model).toEqual({ optimizer_backend: 'anthropic', target_backend: 'openai' });
    expect(warnings.filter((warning) => warning.code === 'backend-alias-meaning').map((warning) => warning.message)).toEqual([
      'model.optimizer_backend: "anthropic" meant the Claude CLI used as a chat model (claude_chat) in the original; here it means the Anthropic API. Write "claude-code" for the CLI',
      'model.target_backend: "openai" meant the Codex CLI (codex_exec) in the original; here it means the OpenAI API. Write "codex" for the CLI',
    ]);
  });

  it('drops the OpenAI default model name for backends the original gave their own default, and uses minimax_model for a MiniMax target', () => {
    const claude = translateOriginalConfig({
      model: { optimizer_backend: 'openai_chat', target_backend: 'claude_code_exec', target: 'gpt-5.5', optimizer: 'gpt-5.5' },
    });
    expect(claude.config.model).toEqual({ optimizer_backend: 'openai', target_backend: 'claude-code', optimizer: 'gpt-5.5' });
    expect(codes(claude.warnings)).toEqual(['model-name-dropped']);

    const minimax = translateOriginalConfig({
      model: { target_backend: 'minimax_chat', target: 'gpt-5.5', minimax_model: 'MiniMax-M2.5', minimax_region: 'global_en' },
    });
    expect(minimax.config.model).toMatchObject({ target: 'MiniMax-M2.5', target_backend: 'openai' });
    expect(minimax.config.backends).toEqual({ openai: { optimizer: { preset: 'azure' }, target: { preset: 'minimax', region: 'global_en' } } });
  });
});

describe('translateOriginalConfig: other keys', () => {
  it('drops retired keys with a warning that says why', () => {
    const { config, warnings } = translateOriginalConfig({
      train: { num_epochs: 2, steps_per_epoch: 5 },
      gradient: { max_analyst_rounds: 3 },
      optimizer: { meta_learning_rate: 2 },
      model: { codex_trace_to_optimizer: true },
    });
    expect(config.train).toEqual({ num_epochs: 2 });
    expect(config.gradient).toEqual({});
    expect(warnings.map((warning) => warning.path)).toEqual(['train.steps_per_epoch', 'gradient.max_analyst_rounds', 'optimizer.meta_learning_rate']);
    expect(warnings[1]?.message).toBe(
      'gradient.max_analyst_rounds is retired and was ignored: the original parsed it but never used it, and had already retired it',
    );
  });

  it('renames livemathematicianbench and drops the empty strings that meant "unset"', () => {
    const { config } = translateOriginalConfig({
      model: { optimizer_backend: 'openai_chat', reasoning_effort: '', rewrite_reasoning_effort: '' },
      env: { name: 'livemathematicianbench', skill_init: '', out_root: '', workers: 64, shuffle_choices: true },
    });
    expect(config.env).toEqual({ name: 'livemath', workers: 64, shuffle_choices: true });
    expect(config.model).toMatchObject({ reasoning_effort: 'none' });
    expect(config.model).not.toHaveProperty('rewrite_reasoning_effort');
  });

  it('gives a flat legacy config the original default backend, Azure OpenAI', () => {
    const lifted = liftFlatLegacyKeys({ env: 'searchqa', num_epochs: 1 });
    const translated = translateOriginalConfig(lifted.config, { flatLegacy: true });
    expect(translated.originalFormat).toBe(true);
    expect(translated.config.model).toEqual({ optimizer_backend: 'openai', target_backend: 'openai' });
    expect(translated.config.backends).toEqual({ openai: { preset: 'azure' } });
    const { config } = validateConfig(translated.config);
    expect(config.train.num_epochs).toBe(1);
  });
});

describe('translateOriginalConfig: each backend package translates its own keys', () => {
  it("follows the package's declaration, whatever it says", () => {
    const cursor = backendManifest('cursor', z.record(z.string(), z.unknown()), {
      keyFamilies: [{ prefix: 'cursor_exec_', renames: { sandbox: 'sandbox_mode' }, retired: { path: 'the cursor package finds its CLI itself' } }],
    });
    const { config, warnings } = translateWithoutPackages(
      { model: { target_backend: 'cursor_exec', optimizer_backend: 'openai_chat', cursor_exec_sandbox: 'enabled', cursor_exec_path: '/opt/cursor-agent' } },
      { backendPackages: { cursor } },
    );
    expect(config.backends).toEqual({ cursor: { sandbox_mode: 'enabled' } });
    expect(warnings).toEqual([
      {
        code: 'retired-key',
        path: 'model.cursor_exec_path',
        message: 'model.cursor_exec_path is retired and was ignored: the cursor package finds its CLI itself',
      },
    ]);
  });

  it('passes the keys of a package that is not installed through under their own names, implying nothing', () => {
    const { config } = translateWithoutPackages({
      model: {
        optimizer_backend: 'claude_chat',
        target_backend: 'codex_exec',
        codex_exec_full_auto: true,
        codex_path: '/opt/codex',
        claude_code_exec_effort: 'high',
      },
    });
    // Without their packages nothing says that claude_chat means chat mode or that full_auto was retired.
    expect(config.backends).toEqual({ codex: { full_auto: true, path: '/opt/codex' }, 'claude-code': { effort: 'high' } });
    expect(config.model).toEqual({ optimizer_backend: 'claude-code', target_backend: 'codex' });
  });

  it('warns when an installed package does not say how it reads a family of its keys', () => {
    const openai = backendManifest('openai', z.record(z.string(), z.unknown()), { backendNames: { qwen_chat: { preset: 'qwen' } } });
    const { config, warnings } = translateWithoutPackages(
      { model: { target_backend: 'qwen_chat', optimizer_backend: 'qwen_chat', qwen_chat_base_url: 'http://localhost:8000/v1' } },
      { backendPackages: { openai } },
    );
    expect(config.backends).toEqual({ openai: { preset: 'qwen', base_url: 'http://localhost:8000/v1' } });
    expect(warnings).toEqual([
      {
        code: 'value-translated',
        path: 'model.qwen_chat_base_url',
        message:
          'model.qwen_chat_base_url: the installed backend package "openai" does not say how it reads these keys of the original\'s format; they were passed to backends.openai under their own names',
      },
    ]);
  });

  it('ignores without a warning the settings of an unused backend that a base file set, but not those the config itself set', () => {
    const input = {
      model: { optimizer_backend: 'openai_chat', target_backend: 'openai_chat', cursor_exec_sandbox: 'enabled', copilot_exec_path: '/opt/copilot' },
    };
    const { warnings } = translateWithoutPackages(input, { isInherited: (key) => key === 'model.cursor_exec_sandbox' });
    expect(warnings.map((warning) => warning.message)).toEqual(['model.copilot_exec_path: settings of copilot_exec, which neither role uses here; ignored']);
  });

  it('names no backend key in the translator: its only knowledge of backends is the name map', () => {
    const source = readFileSync(join(__dirname, '../../src/config/original-format/translate-original-config.ts'), 'utf8');
    const literals = [...source.matchAll(/'([^'\n]*)'/g)].map((match) => match[1] as string);
    const prefixes = ORIGINAL_KEY_PREFIXES.map((family) => family.prefix);
    expect(literals.filter((literal) => prefixes.some((prefix) => literal.includes(prefix)))).toEqual([]);
    expect(literals.filter((literal) => ['preset', 'mode', 'endpoint', 'base_url', 'sandbox', 'path'].includes(literal))).toEqual([]);
  });
});
