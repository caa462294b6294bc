import type { ApiClient } from './client';

/** The client the stores use, set once at start (main.tsx) or by a test. */
let current: ApiClient | undefined;

export function setClient(client: ApiClient): void {
  current = client;
}

export function api(): ApiClient {
  if (!current) throw new Error('the API client is not set up');
  return current;
}
