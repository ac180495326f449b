import { renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Flags } from '@oclif/core';
import { createAnswerKey, createSimulatorServer, manifest as simManifest, SIMULATOR_SERVER_LIMITS, type SimBackendConfig } from '@skillopt/backends-sim';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { backendSectionFor, prepareRun } from '@skillopt/core';
import { configFlags, overridesOf, SkillOptCommand } from '../../base-command.js';
import { formatTable } from '../../output/format.js';
import { jsonLine } from '../../output/json-lines.js';
import { runConfigRequestOf } from '../../run-setup/command-config.js';
import { listenOrExplain } from '../../serving/listen-or-explain.js';
import { isLoopbackHost } from '../../serving/loopback-host.js';
import { waitForStopSignal } from '../../serving/stop-signal.js';

const TARGET_MODEL_ID = 'sim-target';
const OPTIMIZER_MODEL_ID = 'sim-optimizer';

export default class SimServe extends SkillOptCommand {
  static override enableJsonFlag = true;
  static override summary = 'Serve the SIMULATED model as an OpenAI- and Anthropic-compatible HTTP server on 127.0.0.1 (for SDKs and agent CLIs).';
  static override description = [
    "Starts @skillopt/backends-sim's server in front of the deterministic, seeded SIMULATED model: no real model is called. It speaks OpenAI Chat Completions (POST …/chat/completions) and Responses (POST …/responses), Anthropic Messages (POST …/messages, and …/messages/count_tokens), all plain and streamed, with tools and JSON schemas; GET …/models lists sim-target and sim-optimizer (in Anthropic's shape when an anthropic-version header comes). Routes match by their ending, so any base-URL prefix works (/v1, none, /openai/deployments/<name>). A WebSocket or other upgrade is refused with 426; a model id other than the two is refused with an error naming them.",
    "As an agent CLI's model (Claude Code, Codex, Copilot, OpenCode, Pi pointed at it), the target offered a shell or a file-read tool reads the files the prompt names (task.md …) and the workspace skill file a skills listing points at, one tool round trip each, with the tool its request offers (chosen by the tools' schemas), then answers with the skill applied as in chat; a StructuredOutput-style tool or a JSON schema gets schema-shaped content.",
    "Its knowledge (the answer key) comes from the tasks of the config's env: the train, val and test splits are loaded as `skillopt train` loads them. Only the env section of the config is used; its model and backend choices are not (the server is the model). The seed, noise and latency come from the flags, else from the config's backends.sim section, else the simulator's defaults.",
    'It listens on 127.0.0.1 unless --host says otherwise, and runs until SIGINT (Ctrl-C) or SIGTERM, then closes its connections and exits 0.',
  ].join('\n\n');
  static override examples = [
    { description: "Serve the tasks of the project's config (skillopt.config.yaml) on a free port", command: '<%= config.bin %> sim serve' },
    {
      description: 'A fixed port, 20 ms per call, another seed',
      command: '<%= config.bin %> sim serve -c skillopt.config.yaml --port 8787 --latency-ms 20 --seed 7',
    },
    {
      description: 'For a script: wait for the ready file, read the URL from it',
      command: '<%= config.bin %> sim serve --ready-file /tmp/sim.json',
    },
  ];
  static override flags = {
    ...configFlags,
    port: Flags.integer({ description: 'port to listen on (0 = any free port)', default: 0, min: 0, max: 65_535 }),
    host: Flags.string({ description: 'address to bind; anything but a loopback address exposes the server to the network', default: '127.0.0.1' }),
    'latency-ms': Flags.integer({ description: 'simulated latency per call in ms (default: backends.sim.latency_ms, else 0)', min: 0 }),
    noise: Flags.string({ description: 'probability that a target answer is replaced by a wrong one (default: backends.sim.noise, else 0.05)' }),
    seed: Flags.integer({ description: 'seed of every draw (default: backends.sim.seed, else 0)' }),
    'request-timeout-ms': Flags.integer({
      description: `the time a client has to send its whole request, headers and body; a client that stalls is answered 408 and disconnected (default ${SIMULATOR_SERVER_LIMITS.requestTimeoutMs})`,
      min: 1,
    }),
    'headers-timeout-ms': Flags.integer({
      description: `the time a client has to send its request headers (default ${SIMULATOR_SERVER_LIMITS.headersTimeoutMs}, at most --request-timeout-ms)`,
      min: 1,
    }),
    'max-body-bytes': Flags.integer({
      description: `the largest request body accepted; a larger one is answered 413 (default ${SIMULATOR_SERVER_LIMITS.maxBodyBytes})`,
      min: 1,
    }),
    'ready-file': Flags.string({
      description:
        'once listening, write {url, origin, port, targetModel, optimizerModel, answerKeyItems, pid} as JSON to this file; it is removed again on shutdown',
    }),
    json: Flags.boolean({ description: "once listening, print the ready file's JSON as one line on stdout (and nothing else), then serve" }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(SimServe);
    const workingDirectory = process.cwd();
    const noise = flags.noise === undefined ? undefined : parseProbability(flags.noise, '--noise');
    // The server is the model, so the config's backends are not needed (a config that trains
    // against an HTTP backend must not require that backend installed to serve its tasks).
    const run = await prepareRun({
      ...(await runConfigRequestOf({
        ...(flags.config ? { configFile: flags.config } : {}),
        overrides: [...overridesOf(flags), 'model.target_backend=sim', 'model.optimizer_backend=sim'],
        workingDirectory,
      })),
      needsOptimizer: false,
    });
    for (const warning of run.warnings) this.warn(warning.message);
    const { config, environment } = run;
    const sim = backendSectionFor(config, simManifest) as SimBackendConfig;
    const settings = {
      seed: flags.seed ?? sim.seed,
      noise: noise ?? sim.noise,
      latencyMs: flags['latency-ms'] ?? sim.latency_ms,
    };

    const { train, val, test } = run.splits;
    const items = [...train, ...val, ...test];
    const answerKeySize = createAnswerKey(items).size;
    if (answerKeySize === 0)
      throw new SkillOptError({
        code: ERROR_CODES.dataInvalid,
        category: 'user',
        message: `the env "${environment.id}" gave ${items.length} task items, none with a question and a reference answer: the simulated model would know nothing`,
      });

    if (!isLoopbackHost(flags.host)) {
      this.warn(
        [
          `BINDING TO ${flags.host}, WHICH IS NOT A LOOPBACK ADDRESS.`,
          'The simulated server has no authentication: anyone who can reach this machine on that port can call it',
          'and read its answer key through it. Use --host 127.0.0.1 (the default) unless you mean to share it.',
        ].join('\n'),
      );
    }

    const limits = {
      requestTimeoutMs: flags['request-timeout-ms'] ?? SIMULATOR_SERVER_LIMITS.requestTimeoutMs,
      headersTimeoutMs: flags['headers-timeout-ms'] ?? SIMULATOR_SERVER_LIMITS.headersTimeoutMs,
      maxBodyBytes: flags['max-body-bytes'] ?? SIMULATOR_SERVER_LIMITS.maxBodyBytes,
    };
    const server = await listenOrExplain(flags.host, flags.port, () =>
      createSimulatorServer({
        port: flags.port,
        host: flags.host,
        seed: settings.seed,
        noise: settings.noise,
        latencyMs: settings.latencyMs,
        harmfulRuleRate: sim.harmful_rule_rate,
        uselessRuleRate: sim.useless_rule_rate,
        malformedReplyRate: sim.malformed_reply_rate,
        items,
        targetModelId: TARGET_MODEL_ID,
        optimizerModelId: OPTIMIZER_MODEL_ID,
        ...limits,
      }),
    );
    const readyFile = flags['ready-file'] ? path.resolve(workingDirectory, flags['ready-file']) : undefined;
    // Listeners first, so a signal that arrives while the banner is printed still closes the server.
    const stopped = waitForStopSignal();
    const ready = {
      url: server.url,
      origin: server.origin,
      port: server.port,
      targetModel: TARGET_MODEL_ID,
      optimizerModel: OPTIMIZER_MODEL_ID,
      answerKeyItems: answerKeySize,
      pid: process.pid,
    };
    try {
      if (this.jsonEnabled()) this.logJson(ready);
      this.log(`SkillOpt SIMULATED model server (no real model behind it) for the env ${environment.id}`);
      this.log(
        formatTable([
          ['base URL', server.url],
          ['target model', TARGET_MODEL_ID],
          ['optimizer model', OPTIMIZER_MODEL_ID],
          ['answer key', `${answerKeySize} items (simulated knowledge, from train ${train.length} + val ${val.length} + test ${test.length})`],
          ['settings', `seed ${settings.seed}, noise ${settings.noise}, latency ${settings.latencyMs} ms`],
          [
            'request limits',
            `the whole request within ${limits.requestTimeoutMs} ms (headers within ${Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs)} ms), a body of at most ${limits.maxBodyBytes} bytes`,
          ],
        ]).replace(/^/gm, '  '),
      );
      this.log('');
      this.log('Point an OpenAI-compatible backend at it, e.g.:');
      this.log(`  ${exampleTrainCommand(this.config.bin, flags.config, server.url)}`);
      this.log('(the simulator checks no API key; any value will do)');
      this.log('');
      this.log('Stop with Ctrl-C (SIGINT) or SIGTERM.');
      if (readyFile) {
        // Written whole and renamed into place: a script polling for the file never reads half of it.
        const partial = `${readyFile}.${process.pid}.tmp`;
        writeFileSync(partial, `${JSON.stringify(ready, null, 2)}\n`);
        renameSync(partial, readyFile);
      }
      const signal = await stopped.promise;
      this.log(`\nReceived ${signal}: closing the simulated server.`);
    } finally {
      stopped.dispose();
      if (readyFile) rmSync(readyFile, { force: true });
      await server.close();
    }
    this.log('Closed.');
  }

  /** One line, the ready one or the error: a script reads the first line of stdout and has it whole. */
  protected override logJson(json: unknown): void {
    process.stdout.write(jsonLine(json));
  }
}

function parseProbability(text: string, flag: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1)
    throw new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message: `${flag} must be a probability between 0 and 1, got "${text}"` });
  return value;
}

function exampleTrainCommand(bin: string, configFile: string | undefined, url: string): string {
  return [
    `${bin} train`,
    ...(configFile ? [`--config ${configFile}`] : []),
    '--set model.target_backend=openai --set model.optimizer_backend=openai',
    `--set backends.openai.preset=openai_compatible --set backends.openai.base_url=${url}`,
    `--set model.target=${TARGET_MODEL_ID} --set model.optimizer=${OPTIMIZER_MODEL_ID}`,
  ].join(' ');
}
