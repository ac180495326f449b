#!/usr/bin/env node
// The plugin's commands run Sleep through this file: the `skillopt-sleep` bin of the
// @skillopt/sleep this package depends on, found from here, never from PATH or a source checkout.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const manifestFile = createRequire(import.meta.url).resolve('@skillopt/sleep/package.json');
const { bin } = JSON.parse(readFileSync(manifestFile, 'utf8'));
await import(pathToFileURL(path.resolve(path.dirname(manifestFile), bin['skillopt-sleep'])).href);
