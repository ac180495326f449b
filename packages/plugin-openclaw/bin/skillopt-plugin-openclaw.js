#!/usr/bin/env node
import { main } from '../dist/command-line.js';

await main(new URL('..', import.meta.url), process.argv.slice(2));
