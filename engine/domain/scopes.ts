/**
 * Scopes of contract §8 — `catalog:read`, `catalog:write`, `carts:write`, `orders:read`, `orders:write`
 * (checkout by any method, cancel), `admin` (grants every scope) — and the engine's own:
 * - `orders:import`: checking out with a payment already taken elsewhere, and allocations (a syncing terminal);
 * - `orders:any`: reading, listing, printing and cancelling every order of the engine, not only the key's own
 *   (the box office's staff, and keys made before ownership existed);
 * - `orders:checkout`: checking out its own carts by card (or a zero total), reading and printing its own
 *   orders — the kiosk, which takes no cash, cancels nothing and lists nothing;
 * - `sync`: the sync status, the conflict inbox and the holdings (which the contract gives to `admin`);
 * - `sync:status`: the sync status alone (the kiosk's header: Online/Offline and the backlog).
 * - `checkin` (contract §15): door staff — checking tickets in and out, a show's counts, the ticket keys and revocations.
 */
export const SCOPES = [
  'catalog:read',
  'catalog:write',
  'carts:write',
  'orders:read',
  'orders:write',
  'orders:any',
  'orders:checkout',
  'orders:import',
  'sync',
  'sync:status',
  'checkin',
  'admin',
] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return SCOPES.some((scope) => scope === value);
}

export function grants(held: readonly string[], needed: Scope): boolean {
  return held.includes(needed) || held.includes('admin');
}

/** Who is calling: the key, who its carts and orders belong to, and what it may do. */
export interface Caller {
  readonly keyId: string;
  /** the key's own id, or the name its role's keys share (kiosk, staff sessions) */
  readonly owner: string;
  readonly scopes: readonly string[];
}

/** A key sees its own orders; `orders:any` (and `admin`) every order. An order without an owner only the latter. */
export function seesOrder(caller: Caller, owner: string | null): boolean {
  return owner === caller.owner || grants(caller.scopes, 'orders:any');
}

/** A key uses its own carts; `admin` every cart; a cart without an owner (the v1 facade's) any key with the route's scope. */
export function usesCart(caller: Caller, owner: string | null): boolean {
  return owner === null || owner === caller.owner || caller.scopes.includes('admin');
}

/** The scopes of each role the engine hands keys to itself (docs/security.md has the table). */
export const ROLE_SCOPES = {
  /** the kiosk page: sells by card, prints and shows its own orders, shows the sync status */
  kiosk: ['catalog:read', 'carts:write', 'orders:checkout', 'sync:status'],
  /** the box office after a staff sign-in: any payment, any order of this engine, the conflict inbox */
  boxOffice: ['catalog:read', 'carts:write', 'orders:read', 'orders:write', 'orders:any', 'sync'],
  /** the gate page (door staff, issue #26): checks tickets in and out, reads the catalog, shows the sync status */
  gate: ['catalog:read', 'checkin', 'sync:status'],
} as const satisfies Record<string, readonly Scope[]>;
