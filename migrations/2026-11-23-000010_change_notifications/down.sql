DROP TRIGGER matches_notify_change ON matches;
DROP FUNCTION referee_notify_change();
