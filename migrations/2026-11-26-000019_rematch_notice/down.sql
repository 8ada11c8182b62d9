DROP TRIGGER match_rematch_links_notify_change ON match_rematch_links;
DROP FUNCTION referee_notify_rematch();
