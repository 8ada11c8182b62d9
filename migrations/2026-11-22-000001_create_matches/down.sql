DROP TRIGGER match_events_append_only ON match_events;
DROP FUNCTION match_events_append_only();
DROP TABLE match_events;
DROP TABLE match_seats;
DROP TABLE matches;
