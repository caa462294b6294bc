/** The API's shapes, from the engine's schemas (written once, also behind validation and OpenAPI). */
import type { Static } from 'typebox';
import type { Cart as CartSchema, CreateCartBody as CreateCartSchema } from '../../../engine/contract/cart';
import type { EventView, InventoryView, LocationView } from '../../../engine/contract/catalog';
import type { MoneyBody } from '../../../engine/contract/common';
import type { Order as OrderSchema, PaymentRequest as PaymentSchema } from '../../../engine/contract/order';
import type { GiftCardQuote as GiftCardQuoteSchema, GiftCardView as GiftCardViewSchema } from '../../../engine/contract/gift-card';
import type { Holdings as HoldingsSchema } from '../../../engine/contract/holdings';
import type { CashMovement as CashMovementSchema, Shift as ShiftSchema, ShiftReport as ShiftReportSchema } from '../../../engine/contract/shift';
import type { SyncConflict as SyncConflictSchema, SyncStatus as SyncStatusSchema } from '../../../engine/contract/sync';
export type { PrintBody, PrintJob, Printer } from '../../../engine/contract/printing';
export type { OrdersSummary } from '../../../engine/contract/order-summary';
export type { StaffSession } from '../../../engine/contract/staff';
/** the tickets PDF's page: A4 or an 80 mm roll */
export type PdfSize = 'a4' | '80mm';

export type Money = MoneyBody;
export type Cart = CartSchema;
export type CartItem = Cart['items'][number];
export type ReceiptLine = Cart['receiptLines'][number];
export type CreateCart = CreateCartSchema;
export type Event = EventView;
export type Inventory = InventoryView;
export type Area = Inventory['areas'][number];
export type Location = LocationView;
export type Order = OrderSchema;
export type Payment = PaymentSchema;
export type SyncStatus = SyncStatusSchema;
export type SyncConflict = SyncConflictSchema;
export type Holdings = HoldingsSchema;
/** POST /carts/{cartId}/gift-card-quote: what each card would take and what is left to pay (contract §13) */
export type GiftCardQuote = GiftCardQuoteSchema;
export type GiftCardPart = GiftCardQuote['parts'][number];
/** GET /gift-cards/{code} */
export type GiftCardView = GiftCardViewSchema;
export type { Static };

/** The error envelope of spec §7.1. */
export interface ErrorBody {
  error: { type: string; code: string; message: string; param?: string; details?: Record<string, unknown> };
}

// Shifts and the cash drawer (contract §14)
/** A shift of this engine: open with its float, or closed with its Z figures. */
export type Shift = ShiftSchema;
/** POST /shifts/{id}/cash-movements */
export type CashMovement = CashMovementSchema;
/** GET /shifts/{id}/report: the X report of an open shift, the frozen Z report of a closed one. */
export type ShiftReport = ShiftReportSchema;
/** POST /shifts/{id}/print answers the queued job of the report (contract §12): a print job with `shiftId`. */
export type { PrintJob as ShiftPrintJob, ShiftPrintBody } from '../../../engine/contract/printing';

// Checking tickets at the door (contract §15)
export type { CheckinBody, CheckinCounts, CheckinResult } from '../../../engine/contract/checkin';
