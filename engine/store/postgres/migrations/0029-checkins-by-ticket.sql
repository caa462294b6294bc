-- Issue #26: a ticket's check-ins in the order they happened, as its SQLite twin (store/migrations/0029) explains.
CREATE INDEX checkins_by_ticket ON checkins (ticket_code, at, seq);
