import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Flags } from '@oclif/core';
import { configFlags, EXIT_CODES, overridesOf, SkillOptCommand } from '../base-command.js';
import { findAgentClis, type AgentCliFinding } from '../diagnostics/agent-clis.js';
import { credentialPresence } from '../diagnostics/credentials.js';
import { checkEndpoint, configuredEndpoints, type EndpointCheck } from '../diagnostics/endpoints.js';
import { scanInstalledPackages, type InstalledPackage } from '../diagnostics/package-scan.js';
import { formatTable } from '../output/format.js';
import { inspectConfig, type ConfigPackage } from '../inspection/inspect-config.js';
import { cliInstallDirectory } from '../run-setup/command-config.js';
import { writeLine } from '../inspection/write-output.js';

const FALLBACK_MINIMUM_NODE = '20.19.0';

export default class Doctor extends SkillOptCommand {
  static override enableJsonFlag = true;
  static override summary = 'Check the setup: Node.js, installed packages, credentials, agent CLIs and endpoints.';
  static override description =
    "Checks that Node.js is recent enough; lists the env and backend packages visible from the working directory and from the skillopt installation (@skillopt/env-*, @skillopt/backends-*, skillopt-env-*, skillopt-backends-*), loading each to show its id and contract version or why it cannot be used; says which of the credentials the installed backends read are set as environment variables (never their values); lists the agent CLIs harness targets drive (claude, codex, copilot, opencode, pi) found on PATH, and in the agent CLI cache when SKILLOPT_AGENT_CLIS_DIR names one, with their versions (none is required, so a missing one is no problem); and, with --config, whether the config's packages are installed and its endpoints (backends.*.base_url) answer a GET within 3 seconds. Exits 1 when a check fails.";
  static override examples = [
    { description: 'Check the setup', command: '<%= config.bin %> doctor' },
    { description: 'Also check the packages and endpoints a config uses', command: '<%= config.bin %> doctor --config skillopt.config.yaml' },
    { description: 'As JSON, for a bug report', command: '<%= config.bin %> doctor --json' },
  ];
  static override flags = {
    ...configFlags,
    config: Flags.string({ char: 'c', description: 'a YAML run config whose packages and endpoints to check' }),
    json: Flags.boolean({ description: 'print the findings as JSON' }),
  };

  async run(): Promise<Record<string, unknown> | undefined> {
    const { flags } = await this.parse(Doctor);
    const workingDirectory = process.cwd();
    const problems: string[] = [];

    const required = minimumNodeVersion();
    const node = { version: process.versions.node, required, ok: compareVersions(process.versions.node, required) >= 0 };
    if (!node.ok) problems.push(`Node.js ${node.version} is older than ${required}: install Node.js ${required} or newer`);

    const cliDirectory = cliInstallDirectory();
    const locations = [
      { from: 'the working directory', directory: workingDirectory },
      ...(path.resolve(cliDirectory) === path.resolve(workingDirectory) ? [] : [{ from: 'the skillopt installation', directory: cliDirectory }]),
    ];
    const packages: Array<{ from: string; directory: string; packages: InstalledPackage[] }> = [];
    for (const location of locations) packages.push({ ...location, packages: await scanInstalledPackages(location.directory) });
    for (const found of packages.flatMap((location) => location.packages))
      if (!found.ok) problems.push(`${found.packageName}: ${found.problem ?? 'cannot be used'}`);

    const credentials = credentialPresence(packages.flatMap((location) => location.packages.flatMap((found) => found.credentialVariables)));

    const agentClis = await findAgentClis();

    let configPackages: ConfigPackage[] | undefined;
    let endpoints: EndpointCheck[] | undefined;
    if (flags.config) {
      const inspected = await inspectConfig({ configFile: flags.config, overrides: overridesOf(flags), workingDirectory });
      configPackages = inspected.packages;
      for (const found of configPackages)
        if (found.problem)
          problems.push(
            found.installCommand
              ? `the config's ${found.kind} package "${found.name}" is not installed: ${found.installCommand}`
              : `the config's ${found.kind} package "${found.name}" cannot be used: ${found.problem.split('\n')[0] ?? ''}`,
          );
      endpoints = await Promise.all(configuredEndpoints(inspected.config).map((endpoint) => checkEndpoint(endpoint.key, endpoint.url)));
      for (const endpoint of endpoints)
        if (!endpoint.answered) problems.push(`${endpoint.key} (${endpoint.url}) does not answer: ${endpoint.problem ?? 'no answer'}`);
    }

    if (this.jsonEnabled()) {
      const findings = {
        node,
        packages,
        credentials: credentials.map(({ name, present }) => ({ name, present })),
        agentClis,
        ...(flags.config ? { config: { file: flags.config, packages: configPackages, endpoints } } : {}),
        problems,
      };
      if (problems.length === 0) return findings;
      // The findings are the output, problems included; the exit code says there were some.
      this.logJson(findings);
      this.exit(EXIT_CODES.runFailed);
    }
    const out: string[] = [];
    out.push('Node.js', `  ${node.version}  ${node.ok ? 'ok' : 'TOO OLD'} (skillopt needs ${required} or newer)`, '');
    out.push('Env and backend packages');
    for (const location of packages) {
      out.push(`  from ${location.from} (${location.directory})`);
      if (location.packages.length === 0) out.push('    none');
      else
        out.push(
          formatTable(
            location.packages.map((found) => [
              `    ${found.packageName}`,
              found.version ?? '?',
              found.kind,
              found.ok ? `id ${found.id ?? '?'}, contract ${found.specificationVersion ?? '?'}` : `INVALID: ${(found.problem ?? '').split('\n')[0] ?? ''}`,
            ]),
          ),
        );
    }
    out.push('', 'Credentials (environment variables; values are never shown)');
    out.push(formatTable(credentials.map((credential) => [`  ${credential.name}`, credential.present ? 'set' : 'not set', credential.usedBy ?? ''])));
    out.push('', 'Agent CLIs (for harness targets; none is required)');
    out.push('  on PATH', agentCliTable(agentClis.onPath));
    if (agentClis.cache) {
      out.push(`  in the agent CLI cache (${agentClis.cache.directory})`);
      out.push(agentClis.cache.problem === undefined ? agentCliTable(agentClis.cache.clis) : `    ${agentClis.cache.problem}`);
    }
    if (flags.config && configPackages && endpoints) {
      out.push('', `Config ${flags.config}`);
      for (const found of configPackages)
        out.push(
          `  ${found.kind} ${found.name}: ${found.problem ? (found.installCommand ? `NOT INSTALLED (${found.installCommand})` : `UNUSABLE: ${found.problem.split('\n')[0] ?? ''}`) : `${found.packageName ?? ''} ok`}`,
        );
      if (endpoints.length === 0) out.push('  no endpoints configured (backends.*.base_url)');
      for (const endpoint of endpoints)
        out.push(
          `  ${endpoint.key} ${endpoint.url}: ${endpoint.answered ? `answers (HTTP ${endpoint.status ?? '?'})` : `NO ANSWER (${endpoint.problem ?? ''})`}`,
        );
    } else out.push('', 'Pass --config <file> to check the packages and endpoints of a config.');
    out.push('', problems.length === 0 ? 'No problems found.' : `${problems.length} problem(s):\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    writeLine(out.join('\n'));
    if (problems.length > 0) this.exit(EXIT_CODES.runFailed);
    return undefined;
  }

  /** `credentials` holds names and booleans only (whether a key is set, never its value), under a key name redaction would hide whole. */
  protected override redactForOutput(value: unknown): unknown {
    const { credentials, ...findings } = value as { credentials?: unknown };
    return credentials === undefined ? super.redactForOutput(value) : { ...(super.redactForOutput(findings) as object), credentials };
  }
}

function agentCliTable(findings: readonly AgentCliFinding[]): string {
  return formatTable(
    findings.map((finding) => {
      const detail = [finding.path, finding.problem].filter((part) => part !== undefined).join('  ');
      return [`    ${finding.id}`, finding.found ? (finding.version ?? '?') : 'not found', ...(detail === '' ? [] : [detail])];
    }),
  );
}

function minimumNodeVersion(): string {
  try {
    const manifest = JSON.parse(readFileSync(path.join(cliInstallDirectory(), 'package.json'), 'utf8')) as { engines?: { node?: string } };
    const match = /(\d+\.\d+\.\d+)/.exec(manifest.engines?.node ?? '');
    return match?.[1] ?? FALLBACK_MINIMUM_NODE;
  } catch {
    return FALLBACK_MINIMUM_NODE;
  }
}

/** Compares two x.y.z versions numerically. */
function compareVersions(a: string, b: string): number {
  const parts = (version: string) => version.split('.').map((part) => Number.parseInt(part, 10) || 0);
  const [left, right] = [parts(a), parts(b)];
  for (let index = 0; index < 3; index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
