/**
 * Where the app's windows may go: the engine's own origin (the UI and, inside it, the 3-D Secure
 * challenge page) and, for a terminal using a remote engine, that engine's origin. Nothing else.
 */
export function isAllowedNavigation(url: string, allowedOrigins: readonly string[]): boolean {
  if (!URL.canParse(url)) return false;
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return false;
  return allowedOrigins.includes(target.origin);
}
