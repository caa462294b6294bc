-- Issue #25 (SQLite's 0023-shift-print-jobs.sql): a print job can be a shift's X or Z report instead of an order's
-- tickets or receipt: `shift_id` instead of `order_id`, `what` xReport or zReport, `report` the report (JSON, contract
-- §14 ShiftReport) as it was when the print was asked. PostgreSQL alters the constraints in place.
ALTER TABLE print_jobs ALTER COLUMN order_id DROP NOT NULL;
ALTER TABLE print_jobs ADD COLUMN shift_id TEXT COLLATE "C" REFERENCES shifts(id);
ALTER TABLE print_jobs ADD COLUMN report TEXT COLLATE "C";
ALTER TABLE print_jobs DROP CONSTRAINT print_jobs_what_check;
ALTER TABLE print_jobs ADD CONSTRAINT print_jobs_what_check CHECK (what IN ('tickets', 'receipt', 'all', 'xReport', 'zReport'));
-- an order's job or a shift's report, never both, never neither; a report job never opens the drawer
ALTER TABLE print_jobs ADD CONSTRAINT print_jobs_order_or_shift CHECK ((order_id IS NULL) <> (shift_id IS NULL));
ALTER TABLE print_jobs ADD CONSTRAINT print_jobs_report_what CHECK ((shift_id IS NULL) = (what IN ('tickets', 'receipt', 'all')));
ALTER TABLE print_jobs ADD CONSTRAINT print_jobs_report_json CHECK ((shift_id IS NULL) = (report IS NULL));
ALTER TABLE print_jobs ADD CONSTRAINT print_jobs_report_drawer CHECK (shift_id IS NULL OR open_drawer = 0);
CREATE INDEX print_jobs_by_shift ON print_jobs(shift_id, seq) WHERE shift_id IS NOT NULL;
