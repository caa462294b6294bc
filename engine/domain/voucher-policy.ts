/**
 * The voucher policy: a cart holds one voucher, unless every voucher in it says it combines with others
 * (`combinable: true` in the catalog document). So a venue decides which offers stack; by default none do.
 */
export interface PolicyVoucher {
  readonly code: string;
  readonly combinable: boolean;
}

/** The first code that may not sit with the others in one cart, or undefined when the set is allowed. */
export function voucherConflict(vouchers: readonly PolicyVoucher[]): string | undefined {
  if (vouchers.length < 2) return undefined;
  return vouchers.find((voucher) => !voucher.combinable)?.code;
}

/** Whether `candidate` may join a cart already holding `held` (codes already there are never a conflict). */
export function mayJoin(held: readonly PolicyVoucher[], candidate: PolicyVoucher): boolean {
  const others = held.filter((voucher) => voucher.code !== candidate.code);
  return voucherConflict([...others, candidate]) === undefined;
}
