/**
 * What the caller does at the moment a request is about to leave the process: after any wait in a
 * queue for a concurrency or rate limit, before the first byte is sent. The model awaits it and
 * sends nothing until it resolves; it may be called once per attempt, and a rejection is the
 * call's failure. Core writes a call's ledger start there, so a call still waiting in a backend's
 * own queue when the run is killed is not counted as made.
 */
export type DispatchAnnouncement = () => Promise<void>;
