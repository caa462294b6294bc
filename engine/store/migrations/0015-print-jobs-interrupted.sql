-- Every start fails the print jobs a crash left `printing` (printing/queue.ts); without an index on the state
-- alone that UPDATE read the whole print history — a full-table scan at every start, growing with the orders
-- printed. Few jobs are ever `printing` at once, so this partial index stays tiny.
CREATE INDEX print_jobs_printing ON print_jobs(seq) WHERE state = 'printing';
