import { typedApi } from './api';
import type { ApiData } from './typed-api';
import { tokenStore } from './storage';

// S3 sign-in links: `?token=` in the address is a one-time link code, never a
// session token. It leaves the address bar (and so the history and any Referer) at once and is
// traded for a session of this browser's own; when someone is already signed in, the app asks
// before switching (LinkSwitchPrompt).

/** Marks the history entry a page was opened on with ?token= (the router keeps other members of the state). */
const TOKEN_ENTRY = 'openedWithToken';

/** Takes the link code out of the address; /reset-password carries a reset token of its own. */
export function takeLinkCodeFromUrl(location: Location, history: History): string | null {
  const url = new URL(location.href);
  const code = url.searchParams.get('token');
  if (!code || url.pathname === '/reset-password') return null;
  url.searchParams.delete('token');
  // Y2: the history entry remembers it was opened with ?token=, so the back arrow still knows.
  history.replaceState({ ...(history.state as object | null), [TOKEN_ENTRY]: true }, '', `${url.pathname}${url.search}${url.hash}`);
  return code;
}

/** Y2: the current page was opened with ?token= (the code already left the address bar). */
export function openedWithToken(history: History): boolean {
  return (history.state as Record<string, unknown> | null)?.[TOKEN_ENTRY] === true;
}

export type LinkOwner = ApiData<'POST', '/auth/link-codes/inspect'>;

const quiet = { auth: false, silent: true, skipDuplicateCheck: true } as const;

/** Whose link this is, without using it up. */
export function inspectLinkCode(code: string): Promise<LinkOwner> {
  return typedApi.post('/auth/link-codes/inspect', { body: { code }, ...quiet });
}

/** Trades the code for a session and keeps its token as the login token (S3). */
export async function exchangeLinkCode(code: string): Promise<void> {
  const answer = await typedApi.post('/auth/link-codes/exchange', { body: { code }, ...quiet });
  tokenStore.set(answer.token);
}
