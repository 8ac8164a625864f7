import { useMatches } from 'react-router-dom';
import type { Screen } from '../../engine/catalogue';

/** The catalogue screen of the matched route (set as the route's handle by the router). */
export function useCurrentScreen(): Screen | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const handle = matches[i]?.handle as { screen?: Screen } | undefined;
    if (handle?.screen) return handle.screen;
  }
  return undefined;
}
