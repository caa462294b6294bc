import { app, session } from 'electron';
import { isAllowedNavigation } from './navigation';

/**
 * App-wide lockdown, per Electron's security checklist: no new windows, no navigation or redirects away
 * from the engine's origin (frames included: the 3-D Secure page shows inside the app, on that origin),
 * no webviews, every permission request denied, and no request to any other host.
 */
export function installSecurity(allowedOrigins: readonly string[]): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    const guard = (event: { preventDefault(): void }, url: string) => {
      if (!isAllowedNavigation(url, allowedOrigins)) event.preventDefault();
    };
    contents.on('will-navigate', guard);
    contents.on('will-redirect', guard);
    contents.on('will-frame-navigate', (event) => guard(event, event.url));
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });

  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.setDevicePermissionHandler(() => false);
  ses.webRequest.onBeforeRequest((details, callback) => {
    const allowed = isAllowedNavigation(details.url, allowedOrigins) || details.url.startsWith('data:') || details.url.startsWith('devtools:');
    callback({ cancel: !allowed });
  });
}
