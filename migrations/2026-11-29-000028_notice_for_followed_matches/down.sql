CREATE OR REPLACE FUNCTION referee_notify_events() RETURNS trigger AS $$
BEGIN
    PERFORM referee_notify(ARRAY(
        SELECT match_id::text || ':' || max(ply)::text FROM appended GROUP BY match_id));
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

DROP TABLE match_watches;
