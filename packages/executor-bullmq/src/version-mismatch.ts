/**
 * What differs between the trainer's package and specification versions and a worker's, or
 * undefined when the worker has every one at the same version. A worker on other versions could
 * score the same rollout differently, so it must not run the job at all.
 */
export function describeVersionMismatch(trainer: Readonly<Record<string, string>>, worker: Readonly<Record<string, string>>): string | undefined {
  const differences = Object.entries(trainer)
    .filter(([name, version]) => worker[name] !== version)
    .map(([name, version]) => `${name} ${version} on the trainer, ${worker[name] ?? 'missing'} on this worker`);
  if (differences.length === 0) return undefined;
  return `this worker's versions differ from the run's (${differences.join('; ')}): install the trainer's versions on the worker`;
}
