import { z } from 'zod';
import { SkillOptError } from '@skillopt/contract';
import { composeConfigSchema, validateConfig, type ComposedConfigSchema, type ConfigProblem } from '../../src/config/index.js';
import { backendManifest, codexBackend, envManifest, openAiBackend, searchqaEnv } from './stub-packages.js';

function problemsOf(raw: unknown, schema: ComposedConfigSchema): ConfigProblem[] {
  try {
    validateConfig(raw, schema);
  } catch (error) {
    if (!SkillOptError.isInstance(error)) throw error;
    return (error.details?.problems ?? []) as ConfigProblem[];
  }
  throw new Error('expected the config to be invalid');
}

describe('composeConfigSchema: the env package', () => {
  const schema = composeConfigSchema({ environment: searchqaEnv, backends: {} });

  it("validates the package's keys with its schema and keeps core's env keys for core", () => {
    const seen: unknown[] = [];
    const spy = envManifest('searchqa', {
      safeParse(input: unknown) {
        seen.push(input);
        return searchqaEnv.configSchema.safeParse(input);
      },
    });
    const { config, warnings } = validateConfig({ env: { name: 'searchqa', exec_timeout: 60, max_turns: 2 } }, composeConfigSchema({ environment: spy }));
    expect(seen).toEqual([{ max_turns: 2 }]);
    expect(config.env).toEqual({
      name: 'searchqa',
      exec_timeout: 60,
      split_mode: 'ratio',
      split_seed: 42,
      split_ratio: '2:1:7',
      max_turns: 2,
      max_completion_tokens: 16384,
      limit: 0,
    });
    expect(warnings).toEqual([]);
  });

  it("gives the package the shared keys it declares, as written, so its own defaults win over core's", () => {
    const splitting = envManifest(
      'splitting',
      z.strictObject({
        split_mode: z.enum(['split_dir', 'ratio']).default('split_dir'),
        split_dir: z.string().default(''),
        exec_timeout: z.number().default(30),
      }),
    );
    const seen: unknown[] = [];
    const spy = envManifest('splitting', {
      safeParse(input: unknown) {
        seen.push(input);
        return splitting.configSchema.safeParse(input);
      },
    });
    // The spy hides the shape, so it only receives what core does not know.
    validateConfig({ env: { name: 'splitting', split_dir: 'd', skill_init: 's.md' } }, composeConfigSchema({ environment: spy }));
    expect(seen).toEqual([{}]);

    const { config } = validateConfig({ env: { name: 'splitting', split_dir: 'd', skill_init: 's.md' } }, composeConfigSchema({ environment: splitting }));
    expect(config.env).toMatchObject({ name: 'splitting', skill_init: 's.md', split_dir: 'd', split_mode: 'split_dir', exec_timeout: 30 });
  });

  it("reports the package's problems at their dotted paths, with suggestions among core's and the package's keys", () => {
    expect(problemsOf({ env: { name: 'searchqa', max_turn: 2, limit: -1 } }, schema)).toEqual([
      { path: 'env.limit', message: 'must be at least 0, got -1' },
      { path: 'env.max_turn', message: 'unknown key', suggestion: 'env.max_turns' },
    ]);
    expect(problemsOf({ env: { name: 'searchqa', exec_timout: 3 } }, schema)[0]?.suggestion).toBe('env.exec_timeout');
    expect(problemsOf({ env: { name: 'searchqa', max_item_file_bytes: 1024 } }, schema)[0]?.suggestion).toBe('env.max_items_file_bytes');
    expect(problemsOf({ env: { name: 'searchqa', max_items_file_bytes: 0 } }, schema)).toEqual([
      { path: 'env.max_items_file_bytes', message: 'must be at least 1, got 0' },
    ]);
    expect(validateConfig({ env: { name: 'searchqa', max_items_file_bytes: 1024 } }, schema).config.env.max_items_file_bytes).toBe(1024);
    expect(problemsOf({ env: { name: 'searchqa', max_turns: 'one' } }, schema)).toEqual([
      { path: 'env.max_turns', message: 'expected a number, got the text "one"' },
    ]);
  });

  it('treats keys that a non-strict package schema silently stripped as unknown', () => {
    const loose = envManifest('loose', z.object({ max_turns: z.number().default(1) }));
    expect(problemsOf({ env: { name: 'loose', max_tunrs: 3 } }, composeConfigSchema({ environment: loose }))).toEqual([
      { path: 'env.max_tunrs', message: 'unknown key', suggestion: 'env.max_turns' },
    ]);
  });

  it('reads errors of a schema that is not zod at all', () => {
    const handmade = envManifest('handmade', { safeParse: () => ({ success: false as const, error: new Error('limit must be even') }) });
    expect(problemsOf({ env: { name: 'handmade' } }, composeConfigSchema({ environment: handmade }))).toEqual([{ path: 'env', message: 'limit must be even' }]);
  });

  it('passes the env keys through with a warning when no env package is installed', () => {
    const { config, warnings } = validateConfig({ env: { name: 'searchqa', max_turns: 1, exec_timout: 5 } }, composeConfigSchema());
    expect(config.env).toMatchObject({ name: 'searchqa', max_turns: 1, exec_timout: 5 });
    expect(warnings).toEqual([
      {
        code: 'section-not-validated',
        path: 'env',
        message:
          'env: the env package "searchqa" is not installed, so its keys max_turns, exec_timout (or did you mean exec_timeout?) were passed through unvalidated',
      },
    ]);
  });
});

describe('composeConfigSchema: backend packages', () => {
  const schema = composeConfigSchema({ backends: { openai: openAiBackend, codex: codexBackend } });

  it("validates backends.<id> with that backend's schema and applies its defaults, even without a section", () => {
    const { config, warnings } = validateConfig({ env: { name: 'x' }, backends: { openai: { preset: 'qwen', base_url: 'http://localhost:8000/v1' } } }, schema);
    expect(config.backends).toEqual({
      openai: { preset: 'qwen', base_url: 'http://localhost:8000/v1', timeout_seconds: 300 },
      codex: { path: 'codex', sandbox: 'workspace-write' },
    });
    expect(warnings.filter((warning) => warning.code === 'section-not-validated')).toEqual([]);
  });

  it("reports a backend's problems under backends.<id>, with suggestions", () => {
    expect(
      problemsOf({ env: { name: 'x' }, backends: { openai: { presett: 'azure', target: { base_ulr: 'x' } }, codex: { sandbox: 'yolo' } } }, schema),
    ).toEqual([
      { path: 'backends.openai.target.base_ulr', message: 'unknown key', suggestion: 'backends.openai.target.base_url' },
      { path: 'backends.openai.presett', message: 'unknown key', suggestion: 'backends.openai.preset' },
      {
        path: 'backends.codex.sandbox',
        message: 'expected one of read-only, workspace-write, danger-full-access, got the text "yolo"',
      },
    ]);
  });

  it('passes the section of a backend that is not installed through unchanged, with a warning', () => {
    const { config, warnings } = validateConfig({ env: { name: 'x' }, backends: { cursor: { path: 'cursor-agent', sandbox: 'enabled' } } }, schema);
    expect(config.backends.cursor).toEqual({ path: 'cursor-agent', sandbox: 'enabled' });
    expect(warnings).toEqual([
      {
        code: 'section-not-validated',
        path: 'backends.cursor',
        message: 'backends.cursor: the backend package "cursor" is not installed, so its section was passed through unvalidated',
      },
    ]);
  });

  it('survives a package schema that throws', () => {
    const broken = backendManifest('broken', {
      safeParse: () => {
        throw new Error('boom');
      },
    });
    expect(problemsOf({ env: { name: 'x' } }, composeConfigSchema({ backends: { broken } }))).toEqual([
      { path: 'backends.broken', message: 'the backend package "broken" failed to check its settings: boom' },
    ]);
  });
});
