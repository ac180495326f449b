// Claude Code runs this when a session ends. It records the session's transcript and project for
// Sleep's next night, and nothing else: it never blocks or fails the session, whatever goes wrong.
try {
  const { runSessionEndHook } = await import('@skillopt/sleep/session-end');
  await runSessionEndHook('claude-code');
} catch (error) {
  process.stderr.write(`skillopt-sleep: this session was not recorded (${error instanceof Error ? error.message : String(error)})\n`);
}
