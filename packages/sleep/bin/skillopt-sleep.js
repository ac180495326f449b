#!/usr/bin/env node
import { main } from '../dist/command-line.js';

await main(process.argv.slice(2));
