DROP TRIGGER match_seats_notify_change ON match_seats;
DROP FUNCTION referee_notify_seat_change();
DROP TRIGGER matches_notify_change ON matches;
DROP FUNCTION referee_notify_change();
