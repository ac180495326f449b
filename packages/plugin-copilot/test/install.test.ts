import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createPluginTestHome, folderSnapshot, type PluginTestHome } from '@skillopt/sleep/testing';

/**
 * The GitHub Copilot plugin installed into a temporary HOME (and a project): the MCP server lands in
 * the Copilot CLI's config and a workspace's VS Code and CLI configs beside the user's own servers,
 * the instructions where both read them; a second install changes nothing; uninstall leaves every
 * file as it was; a malformed config stops the install with nothing written.
 */
const packageRoot = path.resolve(__dirname, '..');
const SERVER_BIN = path.join(packageRoot, 'bin', 'skillopt-sleep-mcp-copilot.js');
const TOOLS = ['sleep_status', 'sleep_harvest', 'sleep_dry_run', 'sleep_run', 'sleep_adopt', 'sleep_schedule', 'sleep_unschedule'];

let testHome: PluginTestHome;
let root: string;
let home: string;
beforeEach(() => {
  testHome = createPluginTestHome(packageRoot, 'plugin-copilot-');
  ({ root, home } = testHome);
});
afterEach(() => testHome.remove());

const run = (action: 'install' | 'uninstall', args: string[] = [], environment: Record<string, string> = {}) => testHome.run(action, args, environment);

const tree = folderSnapshot;

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

interface CopilotServer {
  type: string;
  command: string;
  args: string[];
  tools: string[];
}
const snippet = () => readFileSync(path.join(packageRoot, 'copilot-instructions.snippet.md'), 'utf8');

/** A server of the user's, as `copilot mcp add github -- npx -y @modelcontextprotocol/server-github` writes it. */
const USER_MCP_CONFIG = `${JSON.stringify(
  { mcpServers: { github: { tools: ['*'], type: 'local', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'] } } },
  null,
  2,
)}\n`;

describe('skillopt-plugin-copilot install', () => {
  it("merges the server into the Copilot CLI's mcp-config.json beside the user's, and places the instructions", async () => {
    const copilotHome = path.join(root, 'copilot');
    const config = path.join(copilotHome, 'mcp-config.json');
    mkdirSync(copilotHome);
    writeFileSync(config, USER_MCP_CONFIG);
    const before = { ...tree(home), ...tree(copilotHome) };

    const output = await run('install', [], { COPILOT_HOME: copilotHome });
    expect(readJson(config)).toEqual({
      mcpServers: {
        github: { tools: ['*'], type: 'local', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'] },
        'skillopt-sleep': { type: 'local', command: 'node', args: [SERVER_BIN], tools: ['*'] },
      },
    });
    expect(existsSync(SERVER_BIN)).toBe(true);
    expect(readFileSync(path.join(copilotHome, 'instructions', 'skillopt-sleep.instructions.md'), 'utf8')).toBe(snippet());
    expect(output).toContain('copilot mcp list');

    const installed = { ...tree(home), ...tree(copilotHome) };
    await run('install', [], { COPILOT_HOME: copilotHome });
    expect({ ...tree(home), ...tree(copilotHome) }).toEqual(installed);

    await run('uninstall', [], { COPILOT_HOME: copilotHome });
    expect({ ...tree(home), ...tree(copilotHome) }).toEqual(before);
  });

  it('uses ~/.copilot when COPILOT_HOME is not set, and leaves the home empty again', async () => {
    await run('install');
    expect(Object.keys(tree(path.join(home, '.copilot'))).sort()).toEqual(['instructions/skillopt-sleep.instructions.md', 'mcp-config.json']);
    await run('uninstall');
    expect(readdirSync(home)).toEqual([]);
  });

  it("installs for a workspace into VS Code's .vscode/mcp.json, the CLI's .github/mcp.json and .github/instructions", async () => {
    const project = path.join(root, 'project');
    const vscodeConfig = path.join(project, '.vscode', 'mcp.json');
    mkdirSync(path.dirname(vscodeConfig), { recursive: true });
    const userServers = {
      servers: { playwright: { type: 'stdio', command: 'npx', args: ['@playwright/mcp@latest'] } },
      inputs: [{ type: 'promptString', id: 'token', description: 'A token', password: true }],
    };
    writeFileSync(vscodeConfig, `${JSON.stringify(userServers, null, 2)}\n`);
    const before = tree(project);

    await run('install', ['--project', project]);
    expect(readJson(vscodeConfig)).toEqual({
      servers: { ...userServers.servers, 'skillopt-sleep': { type: 'stdio', command: 'node', args: [SERVER_BIN] } },
      inputs: userServers.inputs,
    });
    expect(readJson(path.join(project, '.github', 'mcp.json'))).toEqual({
      mcpServers: { 'skillopt-sleep': { type: 'local', command: 'node', args: [SERVER_BIN], tools: ['*'] } },
    });
    expect(readFileSync(path.join(project, '.github', 'instructions', 'skillopt-sleep.instructions.md'), 'utf8')).toBe(snippet());
    expect(existsSync(path.join(home, '.copilot'))).toBe(false);

    const installed = tree(project);
    await run('install', ['--project', project]);
    expect(tree(project)).toEqual(installed);

    await run('uninstall', ['--project', project]);
    expect(tree(project)).toEqual(before);
    expect(existsSync(path.join(project, '.github'))).toBe(false);
  });

  it('refuses a malformed mcp-config.json, naming where it breaks, and writes nothing', async () => {
    const copilotHome = path.join(home, '.copilot');
    mkdirSync(copilotHome);
    writeFileSync(path.join(copilotHome, 'mcp-config.json'), '{\n  "mcpServers": {\n    "github": { "command": "npx", }\n  }\n}\n');
    const before = tree(home);
    await expect(run('install')).rejects.toThrow(/mcp-config\.json is not valid JSON \(line 3, column \d+\); nothing was written/);
    expect(tree(home)).toEqual(before);
  });
});

describe("the plugin's files", () => {
  it('the instructions name every tool of the server, and VS Code’s applyTo', () => {
    const text = snippet();
    expect(text).toMatch(/^---\napplyTo: "\*\*"\n/);
    expect(TOOLS.filter((tool) => !text.includes(`\`${tool}\``))).toEqual([]);
  });

  it('the example config is the entry the installer writes, its tools named one by one', async () => {
    await run('install');
    const serverOf = (file: string) => (readJson(file) as { mcpServers: Record<string, CopilotServer> }).mcpServers['skillopt-sleep'] as CopilotServer;
    const installed = serverOf(path.join(home, '.copilot', 'mcp-config.json'));
    const example = serverOf(path.join(packageRoot, 'mcp-config.example.json'));
    expect([...example.tools].sort()).toEqual([...TOOLS].sort());
    const byBinName = (server: CopilotServer) => ({ ...server, args: server.args.map((arg) => path.basename(arg)), tools: [] });
    expect(byBinName(example)).toEqual(byBinName(installed));
  });
});
