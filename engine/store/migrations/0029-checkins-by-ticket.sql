-- Issue #26: a ticket's check-ins in the order they happened. A hub records a terminal's offline check-ins late and in
-- any order across terminals; where the ticket is and whether an "in" was a second entry (DUPLICATE_ENTRY) are read
-- from its check-ins ordered by time (engine/checkins/timeline.ts), not from the order they arrived in.
CREATE INDEX checkins_by_ticket ON checkins (ticket_code, at, seq);
