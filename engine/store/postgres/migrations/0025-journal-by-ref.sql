-- Issue #25: a cancellation reads its sale's journal entry (its base total as sold) by the order id, `ref`:
-- without an index that was a scan of the whole journal per cancellation.
CREATE INDEX journal_by_ref ON journal (ref, kind);
