// Secrets never reach the log: sign-in link codes, reset tokens and bearer tokens
// travel in URLs and headers, and the request log would otherwise keep them for anyone who
// reads it.

/** Query parameters whose values are secrets. */
const SECRET_PARAMS = new Set(['token', 'code', 'access_token', 'password', 'key']);

/** The URL with the values of secret query parameters replaced by "[redacted]". */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const path = url.slice(0, queryStart);
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed name is logged as it came.
      }
      return equals >= 0 && SECRET_PARAMS.has(decoded.toLowerCase()) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/** pino paths censored wherever they are logged. */
export const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'res.headers["set-cookie"]',
  '*.token',
  '*.password',
  '*.confirmPassword',
  '*.oldPassword',
];
