#!/usr/bin/env node
import { runPluginBin } from '@skillopt/sleep/installer';

await runPluginBin(new URL('..', import.meta.url));
