/**
 * Sessions Sleep must not learn from because they are not the developer's work: those our own
 * plugin commands start, and those other memory tools run in the developer's agent. The original
 * tried to recognise its own calls by words in their prompts, and none of its prompts still held
 * those words (upstream-sleep §9 item 6). Here the rule is structural: every session a SkillOpt
 * plugin starts opens with the sentinel below, and the engine's own harness calls run in isolated
 * config homes, so they never reach the developer's transcripts at all.
 */

/** The first line of the first prompt of every session a SkillOpt plugin command starts. */
export const OWN_SESSION_SENTINEL = '<!-- skillopt-sleep: own session, not harvested -->';

// The prefix the original's Cursor backend put before each replayed prompt; still written by
// older installs, so still recognised.
const ORIGINAL_REPLAY_SENTINEL = '<skillopt_sleep_internal_replay_v1>';

// First prompts of other tools' background agents (memory indexers) that run inside the
// developer's agent and are not the developer's work.
const AGENT_MARKERS = ['You are a Claude-Mem', 'Hello memory agent', 'You are driving **SkillOpt-Sleep**'];

/** Why a session is not the developer's own work, or undefined when it is. */
export function ownSessionReason(
  firstPrompt: string,
  environment: Readonly<Record<string, string | undefined>> = {},
): 'own-session' | 'background-agent' | undefined {
  const head = firstPrompt.trimStart();
  if (head.startsWith(OWN_SESSION_SENTINEL) || head.startsWith(ORIGINAL_REPLAY_SENTINEL)) return 'own-session';
  const extra = (environment.SKILLOPT_SLEEP_AGENT_MARKERS ?? '')
    .split(',')
    .map((marker) => marker.trim())
    .filter((marker) => marker.length > 0);
  const marker = [...AGENT_MARKERS, ...extra].find((candidate) => firstPrompt.includes(candidate));
  return marker === undefined ? undefined : 'background-agent';
}
