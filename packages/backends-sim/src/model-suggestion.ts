import { nearestName } from '@skillopt/backends-kit';

/** `; did you mean \`sim-target\`?` for a model id a slip away from one the server serves, else nothing: the 404's hint. */
export function didYouMean(modelId: string, served: Iterable<string>): string {
  const nearest = nearestName(modelId, served);
  return nearest === undefined ? '' : `; did you mean \`${nearest}\`?`;
}
