/** The API's shapes, from the engine's schemas (written once, also behind validation and OpenAPI). */
import type { Static } from 'typebox';
import type { Cart as CartSchema, CreateCartBody as CreateCartSchema } from '../../../engine/contract/cart';
import type { EventView, InventoryView, LocationView } from '../../../engine/contract/catalog';
import type { MoneyBody } from '../../../engine/contract/common';
import type { Order as OrderSchema, PaymentRequest as PaymentSchema } from '../../../engine/contract/order';
import type { Holdings as HoldingsSchema } from '../../../engine/contract/holdings';
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
export type {
  GiftCardPart,
  GiftCardQuote,
  GiftCardView,
} from './gift-card-types';
import type { GiftCardPayment, GiftCardPaymentMethod } from './gift-card-types';
/** The order, its payment with the gift-card parts (contract §13). */
export type Order = Omit<OrderSchema, 'payment'> & { payment: Omit<OrderSchema['payment'], 'method'> & { method: OrderSchema['payment']['method'] | GiftCardPaymentMethod; giftCards?: GiftCardPayment[] } };
export type Payment = Omit<PaymentSchema, 'method'> & { method: PaymentSchema['method'] | GiftCardPaymentMethod; giftCards?: { code: string; amount?: Money }[] };
export type SyncStatus = SyncStatusSchema;
export type SyncConflict = SyncConflictSchema;
export type Holdings = HoldingsSchema;
export type { Static };

/** The error envelope of spec §7.1. */
export interface ErrorBody {
  error: { type: string; code: string; message: string; param?: string; details?: Record<string, unknown> };
}
