#!/usr/bin/env node
// `npm install` as the examples run it (the npm shim first on their PATH routes `npm install`/`npm i` here).
// Our packages are not on the registry, so each `@skillopt/<name>` argument becomes its packed
// tarball, with the tarballs of the @skillopt packages it depends on (npm would look those up on the
// registry otherwise). Without package arguments, the @skillopt dependencies of the directory's
// package.json are installed from their tarballs with --no-save, so the manifest stays as written.
// Other packages come from npm's cache (npm_config_offline is set: the examples have no network).
// A global install (-g) of a pinned agent CLI links it from the agent-CLI cache into the document's
// bin folder on PATH (agent-cli-installs.mjs); one of ours is installed from its tarball under the
// document's own global prefix (EXAMPLES_GLOBAL_PREFIX), its bins linked into that bin folder.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { parsePackageArgument } from './agent-cli-installs.mjs';

const { tarballs, internalDependencies, agentClis } = JSON.parse(readFileSync(process.env.EXAMPLES_TARBALLS, 'utf8'));
const packageArgument = /^(@skillopt\/[a-z0-9-]+)(@.*)?$/;

function tarballsOf(names) {
  const closure = new Set(names.flatMap((name) => internalDependencies[name] ?? [name]));
  return [...closure].map((name) => {
    if (!tarballs[name]) throw new Error(`npm install ${name}: no such public package in this workspace`);
    return tarballs[name];
  });
}

/** Links each named agent CLI from the cache; throws for anything else, or another version than the pinned one. */
function linkAgentClis(packageArguments) {
  for (const argument of packageArguments) {
    const { name, version } = parsePackageArgument(argument);
    const install = agentClis[name];
    if (install === undefined)
      throw new Error(
        `npm install -g ${argument}: the examples install globally only the agent CLIs pinned in tools/agent-clis/manifest.json (${Object.keys(agentClis).join(', ')})`,
      );
    if (version !== undefined && version !== install.version)
      throw new Error(`npm install -g ${argument}: tools/agent-clis/manifest.json pins ${name}@${install.version}; write that version, or none`);
    if (install.problem) throw new Error(install.problem);
    const link = path.join(process.env.EXAMPLES_GLOBAL_BIN, install.bin);
    rmSync(link, { force: true });
    symlinkSync(install.binary, link);
    console.error(`(examples: npm install -g ${argument} → the cached ${name}@${install.version}, linked as ${install.bin} on PATH)`);
  }
}

/**
 * Our packages, installed "globally": their tarballs (with those of their @skillopt dependencies,
 * which no registry serves) into `<EXAMPLES_GLOBAL_PREFIX>/lib/node_modules`, where a global
 * install puts packages, and their bins linked into the document's bin folder on PATH.
 */
function installOursGlobally(names) {
  const library = path.join(process.env.EXAMPLES_GLOBAL_PREFIX, 'lib');
  console.error(`(examples: npm install -g ${names.join(' ')} → their tarballs, in ${library}/node_modules)`);
  const result = spawnSync(process.env.EXAMPLES_REAL_NPM ?? 'npm', ['install', '--prefix', library, ...tarballsOf(names)], { stdio: 'inherit' });
  if (result.status !== 0) return result.status ?? 1;
  for (const name of names) {
    const packageDirectory = path.join(library, 'node_modules', ...name.split('/'));
    const { bin = {} } = JSON.parse(readFileSync(path.join(packageDirectory, 'package.json'), 'utf8'));
    for (const [command, file] of Object.entries(typeof bin === 'string' ? { [name.split('/').pop()]: bin } : bin)) {
      const link = path.join(process.env.EXAMPLES_GLOBAL_BIN, command);
      rmSync(link, { force: true });
      symlinkSync(path.join(packageDirectory, file), link);
    }
  }
  return 0;
}

const args = process.argv.slice(2);
if (args.includes('-g') || args.includes('--global')) {
  const packages = args.filter((argument) => !argument.startsWith('-'));
  const ours = packages.filter((argument) => packageArgument.test(argument)).map((argument) => packageArgument.exec(argument)[1]);
  try {
    linkAgentClis(packages.filter((argument) => !packageArgument.test(argument)));
  } catch (error) {
    console.error(`examples: ${error.message}`);
    process.exit(1);
  }
  if (ours.length > 0) process.exit(installOursGlobally(ours));
  process.exit(0);
}
const named = args.filter((argument) => packageArgument.test(argument)).map((argument) => packageArgument.exec(argument)[1]);
const others = args.filter((argument) => !packageArgument.test(argument));
let rewritten;
if (named.length > 0) {
  rewritten = [...tarballsOf(named), ...others];
} else if (!others.some((argument) => !argument.startsWith('-')) && existsSync('package.json')) {
  const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
  const ours = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((name) => name.startsWith('@skillopt/'));
  rewritten = ours.length > 0 ? ['--no-save', ...tarballsOf(ours), ...others] : others;
} else {
  rewritten = others;
}
if (rewritten !== others)
  console.error(`(examples: npm install ${args.join(' ')} → npm install ${rewritten.map((argument) => path.basename(argument)).join(' ')})`);
const result = spawnSync(process.env.EXAMPLES_REAL_NPM ?? 'npm', ['install', ...rewritten], { stdio: 'inherit' });
process.exitCode = result.status ?? 1;
