/**
 * Scopes of contract §8, and `orders:import`: checking out with a payment already taken elsewhere (an
 * offline terminal syncing its sales). `admin` grants every scope.
 */
export const SCOPES = ['catalog:read', 'catalog:write', 'carts:write', 'orders:read', 'orders:write', 'orders:import', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return SCOPES.some((scope) => scope === value);
}

export function grants(held: readonly string[], needed: Scope): boolean {
  return held.includes(needed) || held.includes('admin');
}
