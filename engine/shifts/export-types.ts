/**
 * TEMPORARY: the shapes of contract §14 the export reads, until the shifts helper's ShiftReport
 * (engine/contract/shift.ts) and the journal helper's entry type (engine/domain/journal.ts) are merged.
 */
export interface MoneyShape {
  readonly amount: number;
  readonly currency: string;
}

export interface ShiftShape {
  readonly id: string;
  readonly number: number;
  readonly status: 'open' | 'closed';
  readonly openedAt: string;
  readonly openingFloat: MoneyShape;
  readonly staff?: string | undefined;
  readonly closedAt?: string | undefined;
  readonly zNumber?: number | undefined;
  readonly expected?: MoneyShape | undefined;
  readonly counted?: MoneyShape | undefined;
  readonly difference?: MoneyShape | undefined;
  readonly note?: string | undefined;
}

export interface ShiftReport {
  readonly kind?: 'X' | 'Z' | undefined;
  readonly shift: ShiftShape;
  readonly orders: { readonly count: number; readonly total: MoneyShape };
  readonly cancellations: { readonly count: number; readonly total: MoneyShape };
  readonly byMethod: readonly { readonly method: string; readonly count: number; readonly total: MoneyShape }[];
  readonly byEvent: readonly { readonly eventId: string; readonly name: string; readonly tickets: number; readonly total: MoneyShape }[];
  readonly cash: {
    readonly openingFloat: MoneyShape;
    readonly sales: MoneyShape;
    readonly refunds: MoneyShape;
    readonly payIns: MoneyShape;
    readonly payOuts: MoneyShape;
    readonly expected: MoneyShape;
  };
}

export interface JournalEntry {
  readonly seq: number;
  readonly at: string;
  readonly kind: string;
  readonly ref: string;
  readonly amount?: MoneyShape | undefined;
  readonly data: unknown;
  readonly prevHash: string;
  readonly hash: string;
}
