import type { EventSettingName } from '../../engine/forms/event-settings';
import useSWR from 'swr';
import type { EventInput } from '../../engine/organiser-events';
import { api } from '../../lib/api';

// The organiser console's event calls (issue 9, O2).

export interface EventSummary {
  id: number;
  code: string;
  name: string;
  names: Record<string, string>;
  startsAt: string;
  endsAt: string;
  utcOffsetMinutes: number;
  exhibitors: number;
  current: boolean;
}

export interface Vocabulary {
  modules: string[];
  flags: string[];
  deadlineNames: string[];
  quotaNames: string[];
  /** O2: the forms' values an event sets (forms.yaml `setting:`), with their defaults. */
  settings: EventSettingName[];
  languages: string[];
}

export const useEvents = () => useSWR<EventSummary[]>('/organiser/events', () => api.get<EventSummary[]>('/organiser/events'));
export const useVocabulary = () => useSWR<Vocabulary>('/organiser/vocabulary', () => api.get<Vocabulary>('/organiser/vocabulary'));
export const useEvent = (id: number | null) =>
  useSWR<EventInput & { id: number }>(id === null ? null : `/organiser/events/${id}`, () => api.get<EventInput & { id: number }>(`/organiser/events/${id}`));

export const switchEvent = (eventId: number) => api.put<null>('/organiser/current-event', { eventId });
