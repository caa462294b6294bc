-- Issue #24: gift cards pay (contract §13). A card's ledger: every redemption, refund back onto the card and void,
-- in minor units of the card's currency (redeem and void negative, refund positive). The balance is the card's
-- initial amount (gift_cards.amount) plus every entry, held or settled; it never goes below zero (a hold is a
-- conditional insert, store/gift-card-repo.ts). `held`: a checkout in progress (attempt_id its payment attempt,
-- at a hub the terminal's hold reference; order_id null); `settled`: part of order_id for good. balance_after:
-- the card's balance right after the entry settled (receipts print it; later spends do not change it).
CREATE TABLE gift_card_entries (
  id INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: a released hold's id is not taken by the next entry
  code TEXT NOT NULL REFERENCES gift_cards(code),
  kind TEXT NOT NULL CHECK (kind IN ('redeem', 'refund', 'void')),
  amount INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('held', 'settled')),
  attempt_id TEXT,
  order_id TEXT REFERENCES orders(id),
  at INTEGER NOT NULL,
  balance_after INTEGER
) STRICT;
CREATE INDEX gift_card_entries_by_code ON gift_card_entries(code);
CREATE INDEX gift_card_entries_by_attempt ON gift_card_entries(attempt_id) WHERE attempt_id IS NOT NULL;
CREATE INDEX gift_card_entries_by_order ON gift_card_entries(order_id) WHERE order_id IS NOT NULL;
