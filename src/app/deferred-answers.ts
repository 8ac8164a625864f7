import { useDeferredValue } from 'react';
import type { Middleware } from 'swr';

/**
 * Short main-thread tasks (Lighthouse TBT on /orderForms, S04, /dashboard): SWR reports an answer through
 * useSyncExternalStore, whose updates React renders synchronously, in one task (a microtask
 * after the fetch). The first answer of a key is what turns a loading page into the whole page,
 * which took one task of 250–600 ms. This middleware hands that first answer over through
 * useDeferredValue: the urgent render keeps the loading state (cheap), and the page with its
 * data renders at transition priority, in ~5 ms slices, so input and paint get in between.
 * Only the first answer is held back (a later one, or a key's cached answer, shows at once), so a
 * component never sees an answer older than SWR's; `isLoading` stays true while it is held.
 */
export const deferFirstAnswer: Middleware = (useSWRNext) => (key, fetcher, config) => {
  const response = useSWRNext(key, fetcher, config);
  const answer = response.data;
  const deferred = useDeferredValue(answer);
  const held = answer !== undefined && deferred === undefined;
  if (!held) return response;
  return new Proxy(response, {
    get: (target, property, receiver) => {
      if (property === 'data') return undefined;
      if (property === 'isLoading') return true;
      return Reflect.get(target, property, receiver);
    },
  });
};
