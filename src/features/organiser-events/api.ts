import { mutate } from 'swr';
import { typedApi } from '../../lib/api';
import type { ApiData } from '../../lib/typed-api';
import { useApi } from '../../lib/use-api';

// The organiser console's event calls (O2), typed from the routes' answer schemas.

export type EventSummary = ApiData<'GET', '/organiser/events'>[number];
/** O2: the names an organiser sets: modules, flags, deadline and quota names, the forms' settings, languages. */
export type Vocabulary = ApiData<'GET', '/organiser/vocabulary'>;

export const useEvents = () => useApi('GET', '/organiser/events');
export const useVocabulary = () => useApi('GET', '/organiser/vocabulary');
export const useEvent = (id: number | null) => useApi('GET', '/organiser/events/{id}', { path: { id: id ?? 0 } }, { enabled: id !== null });

/**
 * O2: the organiser works on another event. Everything the browser has loaded belongs to the
 * previous one (reminder days, exhibitors, progress…): it is forgotten and read again where shown,
 * so no page shows, or acts on, the previous event's data.
 */
export async function switchEvent(eventId: number) {
  const answer = await typedApi.put('/organiser/current-event', { body: { eventId } });
  await mutate(() => true, undefined);
  return answer;
}
