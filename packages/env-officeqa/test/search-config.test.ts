import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { parseConfigYaml } from '@skillopt/core';
import { createScriptedChatModel } from '@skillopt/env-kit/testing';
import { createEnvironment, manifest, parseOfficeQaConfig, type SearchProvider } from '../src/index';
import { contextFor, FIXTURE_CONFIG } from './helpers';

const ORIGINAL_CONFIG_FILE = path.join(__dirname, 'fixtures', 'original-officeqa-default.yaml');
const ONLINE = { ...FIXTURE_CONFIG, search_mode: 'online', search_api_url: 'http://127.0.0.1:9/search', search_auth_env: 'OFFICEQA_TEST_SEARCH_TOKEN' };

function thrown(run: () => unknown): SkillOptError {
  try {
    run();
  } catch (error) {
    if (SkillOptError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a SkillOptError');
}

afterEach(() => {
  delete process.env.OFFICEQA_TEST_SEARCH_TOKEN;
});

describe('search_mode', () => {
  it('takes offline and online, and reads the original custom/custom_search as online', () => {
    for (const [written, mode] of [
      ['offline', 'offline'],
      ['online', 'online'],
      ['custom', 'online'],
      ['custom_search', 'online'],
      ['Custom_Search', 'online'],
    ] as const)
      expect(parseOfficeQaConfig({ ...FIXTURE_CONFIG, search_mode: written }).search_mode).toBe(mode);
    expect(parseOfficeQaConfig(FIXTURE_CONFIG).search_mode).toBe('offline');
  });

  it("refuses the original azure/azure_search: a provider's hosted web search is not ported, and says what to use", () => {
    for (const written of ['azure', 'azure_search']) {
      const error = thrown(() => parseOfficeQaConfig({ ...FIXTURE_CONFIG, search_mode: written }));
      expect(error).toMatchObject({ code: ERROR_CODES.configInvalid, category: 'user' });
      expect(error.message).toContain(`env.search_mode: "${written}" (a model provider's hosted web-search tool) is not ported`);
      expect(error.message).toContain('use search_mode: online with search_api_url set to your own search endpoint, or offline');
    }
  });

  it('refuses any other value with the nearest valid one, never falling back to offline', () => {
    expect(() => parseOfficeQaConfig({ ...FIXTURE_CONFIG, search_mode: 'onlne' })).toThrow(
      /env.search_mode: unknown search mode "onlne"; did you mean "online"\?/,
    );
    expect(() => parseOfficeQaConfig({ ...FIXTURE_CONFIG, search_mode: 'custom_serch' })).toThrow(/did you mean "custom_search"\?/);
    expect(() => parseOfficeQaConfig({ ...FIXTURE_CONFIG, search_mode: 'bing' })).toThrow(/unknown search mode "bing" \(valid: offline, online/);
  });
});

describe('online search set-up', () => {
  it('needs search_api_url: no endpoint is a default', () => {
    process.env.OFFICEQA_TEST_SEARCH_TOKEN = 'tok-1234';
    const error = thrown(() => createEnvironment({ ...FIXTURE_CONFIG, search_mode: 'online' }));
    expect(error).toMatchObject({ code: ERROR_CODES.configInvalid, category: 'user' });
    expect(error.message).toMatch(/env.search_api_url: required when search_mode is online/);
    expect(() => createEnvironment({ ...FIXTURE_CONFIG, search_mode: 'custom_search' })).toThrow(/env.search_api_url: required/);
  });

  it('needs the token variable set, naming it, and checks it again when a rollout reads it', async () => {
    const missing = thrown(() => createEnvironment(ONLINE));
    expect(missing).toMatchObject({ code: ERROR_CODES.configInvalid, category: 'user' });
    expect(missing.message).toContain('env.search_auth_env: the environment variable OFFICEQA_TEST_SEARCH_TOKEN is not set');

    process.env.OFFICEQA_TEST_SEARCH_TOKEN = 'tok-1234';
    const environment = createEnvironment(ONLINE);
    delete process.env.OFFICEQA_TEST_SEARCH_TOKEN;
    const [item] = await environment.loadSplit('train');
    const model = createScriptedChatModel({ reply: ['<answer>1</answer>'] });
    await expect(environment.rollout(item!, contextFor({ kind: 'chat', model }))).rejects.toThrow(/OFFICEQA_TEST_SEARCH_TOKEN is not set/);
    expect(model.calls).toHaveLength(0);
  });

  it("needs no variable when search_auth_env is '', nor an endpoint when a provider is passed", () => {
    expect(() => createEnvironment({ ...ONLINE, search_auth_env: '' })).not.toThrow();
    const provider: SearchProvider = { id: 'mine', search: async () => [] };
    expect(() => createEnvironment({ ...FIXTURE_CONFIG, search_mode: 'online' }, { searchProvider: provider })).not.toThrow();
  });

  it('refuses credentials in the URL without repeating them', () => {
    const error = thrown(() => parseOfficeQaConfig({ ...FIXTURE_CONFIG, search_api_url: 'https://alice:hunter2secret@search.example/api' }));
    expect(error.message).toContain('env.search_api_url: "https://[redacted]@search.example/api" holds credentials');
    expect(JSON.stringify(error)).not.toContain('hunter2secret');
    expect(JSON.stringify(error.details)).not.toContain('hunter2secret');
    expect(() => parseOfficeQaConfig({ ...FIXTURE_CONFIG, search_api_url: 'ftp://search.example/' })).toThrow(/must be an http:\/\/ or https:\/\/ URL/);
  });

  it('refuses a search_auth_env that is not a variable name (a token written in its place) without repeating it', () => {
    const error = thrown(() => parseOfficeQaConfig({ ...FIXTURE_CONFIG, search_auth_env: 'Bearer abc.def-123' }));
    expect(error.message).toContain('env.search_auth_env: must be the name of an environment variable');
    expect(JSON.stringify(error)).not.toContain('abc.def-123');
  });
});

describe("the original's officeqa config", () => {
  it("loads: the package's schema accepts its env section, search settings included", () => {
    const tree = parseConfigYaml(readFileSync(ORIGINAL_CONFIG_FILE, 'utf8'), ORIGINAL_CONFIG_FILE) as { env: Record<string, unknown> };
    // The trainer takes `name` and `skill_init` out of the env section before the package sees it.
    const { name, skill_init: skillInit, ...section } = tree.env;
    expect([name, skillInit]).toEqual(['officeqa', 'skillopt/envs/officeqa/skills/initial.md']);
    const parsed = manifest.configSchema.safeParse(section);
    if (!parsed.success) throw new Error(`the original's env section was refused: ${String(parsed.error)}`);
    expect(parsed.data).toMatchObject({
      search_mode: 'offline',
      search_provider: 'duckduckgo',
      search_auth_env: 'OFFICEQA_CUSTOM_SEARCH_AUTH',
      max_queries_per_turn: 4,
      search_max_num_results: 4,
      search_timeout_seconds: 20,
      workers: 4,
    });
  });

  it('offline, never contacts the URL it names, offers no search tool and needs no token', async () => {
    const tree = parseConfigYaml(readFileSync(ORIGINAL_CONFIG_FILE, 'utf8'), ORIGINAL_CONFIG_FILE) as { env: Record<string, unknown> };
    const { search_api_url: url } = tree.env;
    const environment = createEnvironment({ ...FIXTURE_CONFIG, search_api_url: url as string, search_provider: 'duckduckgo' });
    const [item] = await environment.loadSplit('train');
    const fetchSpy = jest.spyOn(globalThis, 'fetch');
    try {
      const model = createScriptedChatModel({ reply: ['<answer>32,118</answer>'] });
      const result = await environment.rollout(item!, contextFor({ kind: 'chat', model }));
      expect(result).toMatchObject({ status: 'scored', details: { searchMode: 'offline' } });
      expect(model.calls[0]!.tools!.map((tool) => tool.name)).toEqual(['glob', 'read', 'grep']);
      expect(fetchSpy).not.toHaveBeenCalled();
    } finally {
      fetchSpy.mockRestore();
    }
  });
});
