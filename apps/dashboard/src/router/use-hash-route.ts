import { useEffect, useState } from 'react';
import { parseHashRoute, type Route } from './hash-route.js';

/** The route of the current location hash, updated on every hash change (links, back and forward). */
export function useHashRoute(): Route {
  const [route, setRoute] = useState(() => parseHashRoute(window.location.hash));
  useEffect(() => {
    const update = () => setRoute(parseHashRoute(window.location.hash));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}
