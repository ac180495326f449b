// How the pack-and-install check and the example runner report each of their checks: `ok - name`
// with its time, or `not ok - name` with the first lines of the failing command's output, kept in
// `results.passed` / `results.failed` for tools/check/run-checks.mjs to count.

/** Seconds since `since` (a Date.now() value), to one decimal. */
export const secondsSince = (since) => ((Date.now() - since) / 1000).toFixed(1);

/** `record(name, check)` runs `check` (a string it returns is printed as a note) and says whether it passed. */
export function createCheckRecorder(results) {
  return function record(name, check) {
    const checkStartedAt = Date.now();
    try {
      const note = check();
      results.passed.push(name);
      console.log(`ok - ${name}${typeof note === 'string' ? `: ${note}` : ''} (${secondsSince(checkStartedAt)} s)`);
      return true;
    } catch (error) {
      const output = [error.stdout, error.stderr]
        .map((stream) => String(stream ?? '').trim())
        .filter(Boolean)
        .join('\n');
      const reason = (output || String(error.message ?? error)).split('\n').slice(0, 20).join('\n');
      results.failed.push(`${name}: ${reason}`);
      console.log(`not ok - ${name}\n${reason.replace(/^/gm, '    ')}`);
      return false;
    }
  };
}
