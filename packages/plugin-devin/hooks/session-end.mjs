// Devin runs this when a session ends (the SessionEnd hook of the project's .devin/hooks.v1.json). It
// records the session's id and project for Sleep's next night, and nothing else: it never blocks or
// fails the session, whatever goes wrong.
try {
  const { runSessionEndHook } = await import('@skillopt/sleep/session-end');
  await runSessionEndHook('devin');
} catch (error) {
  process.stderr.write(`skillopt-sleep: this session was not recorded (${error instanceof Error ? error.message : String(error)})\n`);
}
