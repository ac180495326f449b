#!/usr/bin/env node
// `npm install` as the examples run it (the examples' shell routes `npm install`/`npm i` here).
// Our packages are not on the registry, so each `@skillopt/<name>` argument becomes its packed
// tarball, with the tarballs of the @skillopt packages it depends on (npm would look those up on the
// registry otherwise). Without package arguments, the @skillopt dependencies of the directory's
// package.json are installed from their tarballs with --no-save, so the manifest stays as written.
// Other packages come from npm's cache (npm_config_offline is set: the examples have no network).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const { tarballs, internalDependencies } = JSON.parse(readFileSync(process.env.EXAMPLES_TARBALLS, 'utf8'));
const packageArgument = /^(@skillopt\/[a-z0-9-]+)(@.*)?$/;

function tarballsOf(names) {
  const closure = new Set(names.flatMap((name) => internalDependencies[name] ?? [name]));
  return [...closure].map((name) => {
    if (!tarballs[name]) throw new Error(`npm install ${name}: no such public package in this workspace`);
    return tarballs[name];
  });
}

const args = process.argv.slice(2);
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
const result = spawnSync('npm', ['install', ...rewritten], { stdio: 'inherit' });
process.exitCode = result.status ?? 1;
