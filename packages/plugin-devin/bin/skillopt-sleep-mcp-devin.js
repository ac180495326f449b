#!/usr/bin/env node
import { runSleepMcpServer } from '@skillopt/sleep/mcp';

await runSleepMcpServer({ runtime: 'devin' });
