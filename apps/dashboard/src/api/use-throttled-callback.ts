import { useCallback, useEffect, useRef } from 'react';

/**
 * A function that runs `callback` soon after it is called, at most once per `intervalMilliseconds`:
 * a burst of calls (a run writes several events per step) becomes one run at the end of it.
 */
export function useThrottledCallback(callback: () => void, intervalMilliseconds: number): () => void {
  const latestCallback = useRef(callback);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const lastRun = useRef(Number.NEGATIVE_INFINITY);
  useEffect(() => {
    latestCallback.current = callback;
  });
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(() => {
    if (timer.current !== undefined) return;
    const wait = Math.max(0, lastRun.current + intervalMilliseconds - Date.now());
    timer.current = setTimeout(() => {
      timer.current = undefined;
      lastRun.current = Date.now();
      latestCallback.current();
    }, wait);
  }, [intervalMilliseconds]);
}
