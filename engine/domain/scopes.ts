/**
 * Scopes of contract §8, and two of the engine's own: `orders:import`, checking out with a payment already
 * taken elsewhere (a syncing terminal), and `sync`, the sync status and the conflict inbox (which the
 * contract gives to `admin`: `admin` grants every scope, so admin keys keep them).
 */
export const SCOPES = ['catalog:read', 'catalog:write', 'carts:write', 'orders:read', 'orders:write', 'orders:import', 'sync', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return SCOPES.some((scope) => scope === value);
}

export function grants(held: readonly string[], needed: Scope): boolean {
  return held.includes(needed) || held.includes('admin');
}
