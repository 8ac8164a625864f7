// The installable scanner: the service worker (built by vite-plugin-pwa into /sw.js) keeps the
// app shell, the scanner's code and its WebAssembly reader, so the scanner opens without network
// once it was opened once. It is registered from the scanner only: people who never scan
// (organisers on a desktop, /login) download nothing for it.
//
// A new version waits (no skipWaiting): the browser switches to it when no page of the portal is
// open any more, i.e. on the app's next start, never while a scan is under way.

let registered = false;

export function registerScannerServiceWorker(): void {
  if (registered || !import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  registered = true;
  void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
    // Private browsing or a browser without service workers: scanning still works online.
    registered = false;
  });
}
